package org.locus.energy.namenode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.net.Node;

/**
 * The NameNode's topology with one change to how replicas are ordered for a reader: after the
 * stock sort by network distance, every replica on a backup volume ({@code ARCHIVE}) moves
 * behind every live replica on a primary volume, whatever the distance. Readers are thus sent to
 * primaries while those are healthy (seed 000 §4.3.2 "HDFS accesses data in primary disks in
 * most cases"), and backups are read only when no primary is live.
 *
 * <p>One exception, the seed's fast node (§4.3.1, wake reason 2): a backup on the reader's own
 * DataNode keeps its place by distance (first) while that backup volume is spinning. A node
 * whose backups are awake — woken because its own primary data is drained, or for any other
 * reason — then reads the data it holds locally instead of pulling primaries across the network
 * from nodes still busy with their own. Which backup volumes are awake the DataNodes publish and
 * {@link AwakeBackupsFollower} hands over ({@link #awakeBackups(Set)}); none until it does.
 *
 * <p>Why here and not {@code dfs.namenode.read.considerStorageType}: that key sorts by storage
 * type only among replicas at equal distance, so a task on a node holding a backup would read its
 * local backup and wake the disk. Selected by {@code dfs.net.topology.impl}; only the order of
 * the active prefix changes, so stale and decommissioned replicas stay last.
 */
public class PrimaryFirstNetworkTopology extends DFSNetworkTopology {
  private volatile Set<String> awakeBackups = Set.of();

  /** @param storageIds the storage IDs of the backup volumes spinning now, cluster-wide */
  public void awakeBackups(Set<String> storageIds) {
    awakeBackups = Set.copyOf(storageIds);
  }

  /** @return the backup volumes this topology lets their own node's readers read first */
  public Set<String> awakeBackups() {
    return awakeBackups;
  }

  @Override
  public <T extends Node> void sortByDistance(Node reader, T[] nodes, int activeLen,
      Consumer<List<T>> secondarySort) {
    super.sortByDistance(reader, nodes, activeLen, secondarySort);
    movePrimariesFirst(reader, nodes, activeLen, awakeBackups);
  }

  @Override
  public <T extends Node> void sortByDistanceUsingNetworkLocation(Node reader, T[] nodes,
      int activeLen, Consumer<List<T>> secondarySort) {
    super.sortByDistanceUsingNetworkLocation(reader, nodes, activeLen, secondarySort);
    // the reader is no DataNode: no backup is its own
    movePrimariesFirst(null, nodes, activeLen, Set.of());
  }

  /**
   * Stable partition of {@code nodes[0, activeLen)}: non-backup replicas and the reader's own
   * awake backups, then the other backups.
   */
  static <T extends Node> void movePrimariesFirst(Node reader, T[] nodes, int activeLen,
      Set<String> awake) {
    List<T> backups = new ArrayList<>();
    int next = 0;
    for (int i = 0; i < activeLen; i++) {
      if (isBackup(nodes[i]) && !readersOwnAwakeBackup(reader, nodes[i], awake)) {
        backups.add(nodes[i]);
      } else {
        nodes[next++] = nodes[i];
      }
    }
    for (T backup : backups) {
      nodes[next++] = backup;
    }
  }

  private static boolean isBackup(Node node) {
    return node instanceof DatanodeInfoWithStorage
        && ((DatanodeInfoWithStorage) node).getStorageType() == StorageType.ARCHIVE;
  }

  private static boolean readersOwnAwakeBackup(Node reader, Node node, Set<String> awake) {
    if (!(reader instanceof DatanodeInfo)) {
      return false;
    }
    DatanodeInfoWithStorage replica = (DatanodeInfoWithStorage) node;
    return awake.contains(replica.getStorageID())
        && replica.getDatanodeUuid().equals(((DatanodeInfo) reader).getDatanodeUuid());
  }
}
