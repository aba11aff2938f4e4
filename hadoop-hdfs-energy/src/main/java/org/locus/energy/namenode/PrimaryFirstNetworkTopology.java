package org.locus.energy.namenode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.net.Node;

/**
 * The NameNode's topology with one change to how replicas are ordered for a reader: after the
 * stock sort by network distance, every replica on a backup volume ({@code ARCHIVE}) moves
 * behind every live replica on a primary volume, whatever the distance. Readers are thus sent to
 * primaries while those are healthy (seed 000 §4.3.2 "HDFS accesses data in primary disks in
 * most cases"), and backups are read only when no primary is live.
 *
 * <p>Why here and not {@code dfs.namenode.read.considerStorageType}: that key sorts by storage
 * type only among replicas at equal distance, so a task on a node holding a backup would read its
 * local backup and wake the disk. Selected by {@code dfs.net.topology.impl}; only the order of
 * the active prefix changes, so stale and decommissioned replicas stay last.
 */
public class PrimaryFirstNetworkTopology extends DFSNetworkTopology {

  @Override
  public <T extends Node> void sortByDistance(Node reader, T[] nodes, int activeLen,
      Consumer<List<T>> secondarySort) {
    super.sortByDistance(reader, nodes, activeLen, secondarySort);
    movePrimariesFirst(nodes, activeLen);
  }

  @Override
  public <T extends Node> void sortByDistanceUsingNetworkLocation(Node reader, T[] nodes,
      int activeLen, Consumer<List<T>> secondarySort) {
    super.sortByDistanceUsingNetworkLocation(reader, nodes, activeLen, secondarySort);
    movePrimariesFirst(nodes, activeLen);
  }

  /** Stable partition of {@code nodes[0, activeLen)}: non-backup replicas, then backups. */
  static <T extends Node> void movePrimariesFirst(T[] nodes, int activeLen) {
    List<T> backups = new ArrayList<>();
    int next = 0;
    for (int i = 0; i < activeLen; i++) {
      if (isBackup(nodes[i])) {
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
}
