package org.apache.hadoop.hdfs.server.blockmanagement;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.net.Node;
import org.locus.ndcoupling.gear.GearPlan;
import org.locus.ndcoupling.gear.UpdateLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gears' placement rule (seed 004 §4.3, "Updated Data Reflection"), consulted by
 * {@link RoutingBlockPlacementPolicy}.
 *
 * <p>A new block's first replica is meant for the writer's DataNode, or, for a writer outside
 * the cluster, for the plan's nodes in turn (the equal-work layout the high gear serves from);
 * its second goes to another node of gear 0, the covering set, so every gear keeps a replica of
 * every block on; the default policy places the rest around the first. When the intended node
 * is off, the first replica goes to its stand-in and the update log records the file, the
 * stand-in and the intended node. A writer that names favored nodes is left to the other rules
 * and the default.
 *
 * <p>During a gear-up the block's extra replica on the stand-in must be the one deleted once the
 * intended node has its copy: {@link #deletionHint} names the stand-in when the node that just
 * received a replica is an intended node that stand-in covered.
 *
 * <p>State set by {@code GearNameNodePlugin}: the plan, the current gear, the update log and
 * how to find a path's inode id. Each is swapped whole (volatile), read on every allocation.
 * Until the plug-in starts, the rule decides nothing.
 */
public class GearPlacementRule extends PlacementRule {
  private static final Logger LOG = LoggerFactory.getLogger(GearPlacementRule.class);

  /** Finds the inode id of a path, or -1 (the log then names the file by path only). */
  public interface FileIds {
    long inodeIdOf(String path);
  }

  /** What the rule needs to place: set together, swapped atomically. */
  public record GearState(GearPlan plan, int level, UpdateLog log, FileIds fileIds) {
  }

  private RoutingBlockPlacementPolicy router;
  private volatile GearState state;
  /** Intended host → stand-in hosts whose replicas go once the intended node has its copy. */
  private volatile Map<String, Set<String>> reflecting = Map.of();
  private final AtomicLong turn = new AtomicLong();

  @Override
  public void initialize(Configuration conf, RoutingBlockPlacementPolicy router) {
    this.router = router;
  }

  /** Installs the plan, gear, log and inode lookup (null: the rule decides nothing). */
  public void useState(GearState gearState) {
    this.state = gearState;
  }

  /** @return the state in use, or null */
  public GearState state() {
    return state;
  }

  /** Sets which stand-ins lose their replica to which intended nodes during a gear-up. */
  public void reflectingTo(Map<String, Set<String>> intendedToStandIns) {
    this.reflecting = Map.copyOf(intendedToStandIns);
  }

  @Override
  public DatanodeStorageInfo[] chooseNewBlockTargets(String src, int numOfReplicas, Node writer,
      Set<Node> excludedNodes, long blocksize, List<DatanodeDescriptor> favoredNodes,
      BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    GearState current = state;
    if (current == null || src == null || numOfReplicas <= 0
        || (favoredNodes != null && !favoredNodes.isEmpty())) {
      return null;
    }
    GearPlan plan = current.plan();
    String intended = intendedNode(plan, writer);
    boolean off = !plan.activeIn(current.level()).contains(intended);
    String firstHost = off ? plan.standInFor(intended, current.level()) : intended;
    DatanodeDescriptor first = router.datanodeByHost(firstHost);
    if (first == null || (excludedNodes != null && excludedNodes.contains(first))) {
      return null;
    }
    DatanodeStorageInfo firstStorage = router.storageOn(first, blocksize,
        firstStorageType(storagePolicy, numOfReplicas));
    if (firstStorage == null) {
      return null;
    }
    List<DatanodeStorageInfo> chosen = new ArrayList<>(List.of(firstStorage));
    if (numOfReplicas >= 2) {
      // The covering set must hold a replica of every block, or no gear could go down.
      Set<Node> notCovering = new HashSet<>();
      if (excludedNodes != null) {
        notCovering.addAll(excludedNodes);
      }
      notCovering.add(first);
      for (String host : plan.allHosts()) {
        DatanodeDescriptor node = plan.groupOf(host) > 0 ? router.datanodeByHost(host) : null;
        if (node != null) {
          notCovering.add(node);
        }
      }
      DatanodeStorageInfo[] covering = router.chooseAround(src, 1, first, chosen, false,
          notCovering, blocksize, storagePolicy, flags);
      if (covering.length == 1) {
        chosen.add(covering[0]);
      }
    }
    DatanodeStorageInfo[] targets = numOfReplicas > chosen.size()
        ? router.chooseAround(src, numOfReplicas - chosen.size(), first, chosen, true,
            excludedNodes == null ? new HashSet<>() : new HashSet<>(excludedNodes), blocksize,
            storagePolicy, flags)
        : chosen.toArray(new DatanodeStorageInfo[0]);
    if (off) {
      log(current, src, firstHost, intended);
    }
    return targets;
  }

  /**
   * @return the node placement means a new block's first replica for: the writer's DataNode
   *     when it writes on a node of the plan, else the plan's nodes in turn (the equal-work
   *     layout every gear reads from)
   */
  private String intendedNode(GearPlan plan, Node writer) {
    if (writer instanceof DatanodeDescriptor node && router.topology().contains(writer)) {
      String host = planHost(plan, node);
      if (plan.contains(host)) {
        return host;
      }
    }
    List<String> hosts = plan.allHosts();
    return hosts.get((int) (turn.getAndIncrement() % hosts.size()));
  }

  private StorageType firstStorageType(BlockStoragePolicy storagePolicy, int replicas) {
    BlockStoragePolicy effective = router.storagePolicyFor(storagePolicy);
    if (effective == null) {
      return StorageType.DEFAULT;
    }
    List<StorageType> types = effective.chooseStorageTypes((short) replicas);
    return types.isEmpty() ? StorageType.DEFAULT : types.get(0);
  }

  /**
   * Records in the update log that a replica of {@code src} meant for {@code intended} went to
   * {@code standIn}, for a rule that chose the nodes itself (the partition rule); nothing while
   * the gears are off.
   */
  public void recordStandIn(String src, String standIn, String intended) {
    GearState current = state;
    if (current != null) {
      log(current, src, standIn, intended);
    }
  }

  private static void log(GearState current, String src, String standIn, String intended) {
    try {
      current.log().append(current.fileIds().inodeIdOf(src), src, standIn, intended,
          System.currentTimeMillis());
    } catch (IOException e) {
      // The block is safe on the stand-in either way; only its way back to the intended node
      // at gear-up is lost, so say so loudly rather than fail the write.
      LOG.error("Update log {}: could not record that a block of {} meant for {} went to {};"
          + " it will stay there after gear-up", current.log().file(), src, intended, standIn,
          e);
    }
  }

  @Override
  public DatanodeDescriptor deletionHint(Collection<DatanodeStorageInfo> candidates,
      DatanodeDescriptor addedNode, DatanodeDescriptor delNodeHint) {
    Map<String, Set<String>> now = reflecting;
    GearState current = state;
    if (now.isEmpty() || addedNode == null || current == null) {
      return null;
    }
    Set<String> standIns = now.get(planHost(current.plan(), addedNode));
    if (standIns == null) {
      return null;
    }
    for (DatanodeStorageInfo candidate : candidates) {
      DatanodeDescriptor holder = candidate.getDatanodeDescriptor();
      if (standIns.contains(planHost(current.plan(), holder))) {
        return holder;
      }
    }
    return null;
  }

  /** @return the name the plan uses for this DataNode: its host name, else its IP address */
  public static String planHost(GearPlan plan, DatanodeDescriptor node) {
    return plan.contains(node.getHostName()) ? node.getHostName() : node.getIpAddr();
  }
}
