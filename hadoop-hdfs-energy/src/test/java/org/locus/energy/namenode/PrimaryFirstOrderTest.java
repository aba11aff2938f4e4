package org.locus.energy.namenode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.net.NodeBase;
import org.junit.jupiter.api.Test;

/**
 * The order {@link PrimaryFirstNetworkTopology} gives a reader after the distance sort: live
 * primaries before backups, except the reader's own backup while it spins (the fast node).
 */
class PrimaryFirstOrderTest {

  private static DatanodeInfo node(int n) {
    return new DatanodeInfo.DatanodeInfoBuilder().setNodeID(new DatanodeID("127.0.0." + n,
        "h" + n, "uuid-" + n, 9866, 9864, 9865, 9867)).build();
  }

  private static DatanodeInfoWithStorage replica(int n, StorageType type) {
    return new DatanodeInfoWithStorage(node(n), "DS-" + n + "-" + type, type);
  }

  private static List<String> order(DatanodeInfoWithStorage[] replicas) {
    return Arrays.stream(replicas).map(r -> r.getHostName() + ":" + r.getStorageType())
        .toList();
  }

  @Test
  void backupsGoBehindEveryPrimaryWhateverTheDistance() {
    // as the distance sort left them for a reader on h1: its own backup first
    DatanodeInfoWithStorage[] replicas = {replica(1, StorageType.ARCHIVE),
        replica(3, StorageType.ARCHIVE), replica(2, StorageType.DISK)};

    PrimaryFirstNetworkTopology.movePrimariesFirst(node(1), replicas, 3, Set.of());

    assertEquals(List.of("h2:DISK", "h1:ARCHIVE", "h3:ARCHIVE"), order(replicas));
  }

  @Test
  void theReadersOwnSpinningBackupKeepsItsPlace() {
    DatanodeInfoWithStorage[] replicas = {replica(1, StorageType.ARCHIVE),
        replica(3, StorageType.ARCHIVE), replica(2, StorageType.DISK)};
    // h3's backup spins too, but it is not the reader's
    Set<String> awake = Set.of("DS-1-ARCHIVE", "DS-3-ARCHIVE");

    PrimaryFirstNetworkTopology.movePrimariesFirst(node(1), replicas, 3, awake);

    assertEquals(List.of("h1:ARCHIVE", "h2:DISK", "h3:ARCHIVE"), order(replicas));
  }

  @Test
  void aReaderOnNoDataNodeHasNoBackupOfItsOwn() {
    DatanodeInfoWithStorage[] replicas = {replica(1, StorageType.ARCHIVE),
        replica(2, StorageType.DISK)};

    PrimaryFirstNetworkTopology.movePrimariesFirst(new NodeBase("/default-rack/127.0.0.2"),
        replicas, 2, Set.of("DS-1-ARCHIVE"));

    assertEquals(List.of("h2:DISK", "h1:ARCHIVE"), order(replicas));
  }

  @Test
  void replicasPastTheActivePrefixStayWhereTheyAre() {
    // the last one is stale: the NameNode sorted it behind the active ones already
    DatanodeInfoWithStorage[] replicas = {replica(3, StorageType.ARCHIVE),
        replica(1, StorageType.ARCHIVE), replica(2, StorageType.DISK)};

    PrimaryFirstNetworkTopology.movePrimariesFirst(node(1), replicas, 2, Set.of());

    assertEquals(List.of("h3:ARCHIVE", "h1:ARCHIVE", "h2:DISK"), order(replicas));
  }
}
