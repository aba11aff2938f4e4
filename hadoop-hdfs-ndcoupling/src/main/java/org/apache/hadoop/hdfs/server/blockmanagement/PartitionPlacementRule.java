package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.net.Node;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.PartitionHomes;
import org.locus.ndcoupling.gear.GearPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a coupled node's partition keeps its replicas (seed 004 §4.1: a node manages the
 * metadata of the files whose blocks it stores, and metadata is replicated where the data is):
 * a new block's first replica on the partition's own node, the others on its replica nodes,
 * the nodes after it in ring order ({@code locus.ndcoupling.partition.ring}; by default the
 * federation's nameservices in {@code dfs.nameservices} order, each its NameNode's host).
 *
 * <p>Composed with the gears: when {@link GearPlacementRule} has a gear in force and one of
 * these nodes is off, its replica goes to a stand-in and the gear rule's update log records
 * (file, stand-in, intended node), so a gear-up brings it back. The stand-in is the plan's
 * stand-in for the node, unless that node already holds a replica of the block; then the other
 * nodes that are on and hold none take turns. A placement whose nodes would leave no replica
 * in gear 0 (the covering set) is left to the gear rule, which keeps one there.
 *
 * <p>Listed before {@code GearPlacementRule} in {@code locus.placement.rules}. It decides
 * nothing (the next rule or the default places) when this NameNode's own node is not a
 * registered DataNode, when a writer names favored nodes, or when the ring has no entry for
 * this NameNode; its state is the ring, read once at start.
 */
public class PartitionPlacementRule extends PlacementRule {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionPlacementRule.class);

  private RoutingBlockPlacementPolicy router;
  /** The ring, starting with this partition's own node; empty: the rule is off. */
  private List<String> ring = List.of();
  private final AtomicLong turn = new AtomicLong();

  @Override
  public void initialize(Configuration conf, RoutingBlockPlacementPolicy policy) {
    this.router = policy;
    List<String> hosts = ringOf(conf);
    String home = homeOf(conf);
    if (hosts.isEmpty() || home == null) {
      LOG.info("Partition placement off: no ring ({}) or no own node ({}) for this NameNode",
          NdCouplingConfigKeys.PARTITION_RING, NdCouplingConfigKeys.PARTITION_HOME);
      return;
    }
    int start = hosts.indexOf(home);
    if (start < 0) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.PARTITION_HOME + ": " + home
          + " is not a node of the ring " + hosts + " (" + NdCouplingConfigKeys.PARTITION_RING
          + ")");
    }
    List<String> fromHome = new ArrayList<>(hosts.subList(start, hosts.size()));
    fromHome.addAll(hosts.subList(0, start));
    ring = List.copyOf(fromHome);
    LOG.info("Partition placement: own node {}, replica nodes in order {}", home,
        ring.subList(1, ring.size()));
  }

  /** @return the ring from the key, else from the federation's NameNode addresses */
  static List<String> ringOf(Configuration conf) {
    String named = conf.getTrimmed(NdCouplingConfigKeys.PARTITION_RING, "");
    List<String> hosts = new ArrayList<>();
    if (!named.isEmpty()) {
      for (String host : named.split(",")) {
        if (!host.isBlank() && !hosts.contains(host.trim())) {
          hosts.add(host.trim());
        }
      }
      return hosts;
    }
    for (String ns : conf.getTrimmedStringCollection("dfs.nameservices")) {
      String host = nameNodeHost(conf, ns);
      if (host == null) {
        return List.of();
      }
      hosts.add(host);
    }
    return hosts;
  }

  private static String homeOf(Configuration conf) {
    String named = conf.getTrimmed(NdCouplingConfigKeys.PARTITION_HOME, "");
    if (!named.isEmpty()) {
      return named;
    }
    String ns = conf.getTrimmed("dfs.nameservice.id", "");
    return ns.isEmpty() ? null : nameNodeHost(conf, ns);
  }

  private static String nameNodeHost(Configuration conf, String ns) {
    return PartitionHomes.homeHost(conf, ns);
  }

  /** @return this partition's nodes in ring order, its own first; empty when the rule is off */
  public List<String> ring() {
    return ring;
  }

  @Override
  public DatanodeStorageInfo[] chooseNewBlockTargets(String src, int numOfReplicas, Node writer,
      Set<Node> excludedNodes, long blocksize, List<DatanodeDescriptor> favoredNodes,
      BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    List<String> nodes = ring;
    if (nodes.isEmpty() || src == null || numOfReplicas <= 0
        || (favoredNodes != null && !favoredNodes.isEmpty())) {
      return null;
    }
    GearPlacementRule gears = router.rule(GearPlacementRule.class).orElse(null);
    GearPlacementRule.GearState gear = gears == null ? null : gears.state();
    List<String> intended = nodes.subList(0, Math.min(numOfReplicas, nodes.size()));
    // Intended node -> the node that takes its replica now (itself when it is on).
    Map<String, String> placed = new LinkedHashMap<>();
    for (String host : intended) {
      placed.put(host, isOff(gear, host) ? null : host);
    }
    for (Map.Entry<String, String> e : placed.entrySet()) {
      if (e.getValue() == null) {
        String standIn = standIn(gear.plan(), gear.level(), e.getKey(), placed);
        if (standIn == null) {
          return null;
        }
        e.setValue(standIn);
      }
    }
    if (gear != null && placed.values().stream()
        .noneMatch(h -> gear.plan().groupOf(h) == 0)) {
      return null;
    }
    List<StorageType> types = storageTypes(storagePolicy, numOfReplicas);
    List<DatanodeStorageInfo> chosen = new ArrayList<>();
    Map<String, String> stoodIn = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : placed.entrySet()) {
      DatanodeDescriptor node = router.datanodeByHost(e.getValue());
      if (node == null || (excludedNodes != null && excludedNodes.contains(node))) {
        if (chosen.isEmpty()) {
          return null;
        }
        continue;
      }
      DatanodeStorageInfo storage = router.storageOn(node, blocksize,
          types.get(Math.min(chosen.size(), types.size() - 1)));
      if (storage == null) {
        if (chosen.isEmpty()) {
          return null;
        }
        continue;
      }
      chosen.add(storage);
      if (!e.getKey().equals(e.getValue())) {
        stoodIn.put(e.getKey(), e.getValue());
      }
    }
    DatanodeStorageInfo[] targets = numOfReplicas > chosen.size()
        ? router.chooseAround(src, numOfReplicas - chosen.size(),
            chosen.get(0).getDatanodeDescriptor(), chosen, true,
            excludedNodes == null ? new java.util.HashSet<>()
                : new java.util.HashSet<>(excludedNodes), blocksize, storagePolicy, flags)
        : chosen.toArray(new DatanodeStorageInfo[0]);
    stoodIn.forEach((intendedHost, standIn) -> gears.recordStandIn(src, standIn,
        intendedHost));
    return targets;
  }

  private static boolean isOff(GearPlacementRule.GearState gear, String host) {
    return gear != null && gear.plan().contains(host)
        && !gear.plan().activeIn(gear.level()).contains(host);
  }

  /**
   * @return the node that takes {@code host}'s replica while it is off: the plan's stand-in,
   *     or when that one already takes a replica of this block, one of the other nodes that are
   *     on and take none, in turn (so a gear-up's sources, and the partitions whose transfers
   *     they send, are spread over every such node); null when there is none
   */
  private String standIn(GearPlan plan, int level, String host, Map<String, String> placed) {
    String planned = plan.standInFor(host, level);
    if (!placed.containsKey(planned) && !placed.containsValue(planned)) {
      return planned;
    }
    int at = ring.indexOf(host);
    Set<String> active = plan.activeIn(level);
    List<String> free = new ArrayList<>();
    for (int i = 1; i < ring.size(); i++) {
      String next = ring.get((at + i) % ring.size());
      if (active.contains(next) && !placed.containsKey(next) && !placed.containsValue(next)) {
        free.add(next);
      }
    }
    return free.isEmpty() ? null : free.get((int) (turn.getAndIncrement() % free.size()));
  }

  private List<StorageType> storageTypes(BlockStoragePolicy storagePolicy, int replicas) {
    BlockStoragePolicy effective = router.storagePolicyFor(storagePolicy);
    List<StorageType> types = effective == null ? List.of()
        : effective.chooseStorageTypes((short) replicas);
    return types.isEmpty() ? List.of(StorageType.DEFAULT) : types;
  }
}
