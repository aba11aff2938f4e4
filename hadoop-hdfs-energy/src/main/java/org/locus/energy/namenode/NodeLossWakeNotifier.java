package org.locus.energy.namenode;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations.BlockWithLocations;
import org.locus.energy.datanode.WakeRequests;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NameNode-side wake-ups (seed 000 §4.3.1, wake reason 1 "a primary is not available"), a
 * NameNode service plug-in ({@code dfs.namenode.plugins}). When a DataNode stops heartbeating
 * (stale, then dead) or starts decommission or maintenance, readers of the blocks whose
 * primary it holds are sent to the other replicas — backups, asleep. The plug-in finds those
 * backups and asks exactly their volumes to wake before the readers arrive.
 *
 * <p>How: every {@code locus.energy.namenode.poll.interval.ms} it looks at the DataNode list.
 * For a node newly stale (heartbeat older than {@code dfs.namenode.stale.datanode.interval}, the
 * moment readers start to skip it when {@code dfs.namenode.avoid.read.stale.datanode} is on),
 * dead, decommissioning or entering maintenance, it lists the node's blocks on primary
 * ({@code DISK}) storage through the Balancer's public query
 * ({@link FSNamesystem#getBlocks}), collects the {@code ARCHIVE} storages of their other
 * replicas, and files one {@link WakeRequests} request naming those storage IDs, with the reason.
 * Each DataNode's power manager reads it within a second and wakes those volumes. A node
 * already dead whose blocks the NameNode has dropped is answered with a wake of every backup.
 * A node that comes back is forgotten, so its next loss is seen again.
 *
 * <p>Why a request file, not a new RPC: DataNodes already poll the request directory for
 * {@code locus energy wake}; one channel, no new port, and the request is visible to an
 * operator ({@code hdfs dfs -cat}).
 */
public class NodeLossWakeNotifier extends PollingNameNodePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(NodeLossWakeNotifier.class);

  private long staleMillis;
  /** Nodes whose loss was handled, by datanode UUID, with the condition seen then. */
  private final Map<String, String> handled = new HashMap<>();
  private long requests;

  @Override
  protected boolean prepare() {
    staleMillis = getConf().getLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
    LOG.info("Node-loss wake notifier started (stale after {} ms)", staleMillis);
    return true;
  }

  @Override
  protected String threadName() {
    return "locus-energy-node-loss-wake";
  }

  @Override
  protected void poll(FSNamesystem namesystem) throws IOException {
    List<DatanodeDescriptor> nodes = namesystem.getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.ALL);
    for (DatanodeDescriptor node : nodes) {
      String condition = lossCondition(node);
      String uuid = node.getDatanodeUuid();
      if (condition == null) {
        handled.remove(uuid);
      } else if (!handled.containsKey(uuid)) {
        // once per loss: a stale node that is later declared dead was handled when stale
        notifyBackups(namesystem, node, condition);
        handled.put(uuid, condition);
      }
    }
  }

  /** @return why readers now avoid the node, or null when it serves normally */
  private String lossCondition(DatanodeDescriptor node) {
    if (!node.isAlive()) {
      return "declared dead";
    }
    if (node.isStale(staleMillis)) {
      return "stale (no heartbeat for " + staleMillis + " ms)";
    }
    if (node.isDecommissionInProgress()) {
      return "decommissioning";
    }
    if (node.isEnteringMaintenance()) {
      return "entering maintenance";
    }
    return null;
  }

  private void notifyBackups(FSNamesystem namesystem, DatanodeDescriptor node,
      String condition) throws IOException {
    String lost = node.getXferAddr();
    String reason = "DataNode " + lost + " " + condition + ": its primaries' backups serve"
        + " readers";
    Set<String> backups = new TreeSet<>();
    BlocksWithLocations blocks;
    try {
      blocks = namesystem.getBlocks(node, Long.MAX_VALUE, 0, 0, StorageType.DISK);
    } catch (IOException e) {
      LOG.warn("Cannot list the blocks of {} ({}); waking every backup", lost, e.toString());
      WakeRequests.request(client(), getConf(), WakeRequests.ALL, reason);
      requests++;
      return;
    }
    String uuid = node.getDatanodeUuid();
    for (BlockWithLocations block : blocks.getBlocks()) {
      String[] nodeUuids = block.getDatanodeUuids();
      StorageType[] types = block.getStorageTypes();
      String[] storages = block.getStorageIDs();
      for (int i = 0; i < nodeUuids.length; i++) {
        if (!nodeUuids[i].equals(uuid) && types[i] == StorageType.ARCHIVE) {
          backups.add(storages[i]);
        }
      }
    }
    if (blocks.getBlocks().length == 0 && condition.equals("declared dead")) {
      // the NameNode drops a dead node's replicas; without them, wake everyone
      WakeRequests.request(client(), getConf(), WakeRequests.ALL, reason);
      requests++;
      LOG.info("{}: its blocks are no longer known; asked every DataNode to wake", reason);
      return;
    }
    if (backups.isEmpty()) {
      LOG.info("DataNode {} {}: no primary replica on it has a backup to wake", lost,
          condition);
      return;
    }
    WakeRequests.requestStorages(client(), getConf(), backups, reason);
    requests++;
    LOG.info("{}: asked {} backup volumes holding replicas of its {} primary blocks to wake",
        reason, backups.size(), blocks.getBlocks().length);
  }

  /** @return how many wake requests this NameNode has filed */
  public synchronized long requests() {
    return requests;
  }
}
