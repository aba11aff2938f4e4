package org.locus.energy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.mover.Mover;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.util.Time;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.energy.datanode.BackupDisk;
import org.locus.energy.datanode.BackupDiskPowerManager;
import org.locus.energy.datanode.offload.WriteOffloading;
import org.locus.energy.disk.DiskPowerState;
import org.locus.kit.HostAddressedMiniDFSCluster;
import org.locus.kit.LocusMiniCluster;

/**
 * Write off-loading on a 3-node cluster, one primary ([DISK]) and one backup ([ARCHIVE]) volume
 * per node, replication 3, WARM placement, simulated disks: a write meets sleeping backups and
 * leaves them asleep (its backup replicas staged on the nodes' primary volumes, reported there
 * to the NameNode); once the backups wake the replicas move to them and the placement is WARM's
 * again; a copy the NameNode has another DataNode send to a sleeping backup (re-replication) is
 * staged too; past the staging bound a write goes to the backup as without off-loading; a replica
 * still staged when its DataNode restarts is put right by {@code hdfs mover}. Contents and fsck
 * are checked after each step.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WriteOffloadingTest {
  private static final int BLOCK = 262144;
  /** The staging bound, 1 MiB: four blocks per node. */
  private static final int STAGED_BLOCKS_PER_NODE = 4;
  private static final Path FIRST = new Path("/offload/first");
  private static final Path SECOND = new Path("/offload/second");
  private static final Path THIRD = new Path("/offload/third");
  private static final Path REREPLICATED = new Path("/offload/rereplicated");
  private static LocusMiniCluster cluster;
  private static FileSystem fs;
  private static byte[] first;
  private static byte[] second;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = EnergyTestClusters.withEnergyFeature(
        LocusMiniCluster.builder(new File("target/test-clusters/write-offloading")))
        .nodes(3)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .set("dfs.blocksize", Integer.toString(BLOCK))
        .set("dfs.replication", "3")
        .set("dfs.datanode.fsdataset.factory", EnergyConfigKeys.OFFLOADING_FACTORY)
        .set(EnergyConfigKeys.OFFLOAD_WRITES, "true")
        .set(EnergyConfigKeys.OFFLOAD_MAX_STAGED_MB, "1")
        .start();
    fs = cluster.getFileSystem();
    HotScratchSpace.apply(cluster.getFileSystem(), cluster.getConfiguration());
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void aWriteToSleepingBackupsLeavesThemAsleepAndStagesItsReplicasOnPrimaries()
      throws Exception {
    awaitBackupsAsleep();
    long spinUpsBefore = spinUps();
    first = write(FIRST, 2 * BLOCK, 1);
    assertEquals(spinUpsBefore, spinUps(), "no backup spun up for the write");
    for (BackupDisk backup : EnergyTestClusters.backups(cluster)) {
      assertEquals(DiskPowerState.STANDBY, backup.state(), backup.name());
    }
    // WARM sends one replica to a primary and two to backups: 2 blocks x 2 staged replicas
    assertEquals(4, sum(WriteOffloading::stagedReplicas));
    assertEquals(4, sum(WriteOffloading::offloadedReplicas));
    // close() returns once the NameNode counts one replica; the others' reports may still come
    DFSTestUtil.waitReplication(fs, FIRST, (short) 3);
    for (Map<StorageType, Integer> types : storageTypesPerBlock(FIRST)) {
      assertEquals(Map.of(StorageType.DISK, 3), types, "the NameNode sees the staged replicas"
          + " on the primary volumes they were written to");
    }
    assertArrayEquals(first, read(FIRST));
    assertHealthy(FIRST);
  }

  @Test
  @Order(2)
  void onceTheBackupsWakeTheStagedReplicasMoveToThem() throws Exception {
    wakeBackupsAndAwaitTheMoves();
    assertEquals(4, sum(WriteOffloading::movedReplicas));
    awaitPlacement(FIRST);
    assertArrayEquals(first, read(FIRST));
    assertHealthy(FIRST);
  }

  @Test
  @Order(3)
  void aReplicaAnotherDataNodeSendsToASleepingBackupIsStagedToo() throws Exception {
    awaitBackupsAsleep();
    long spinUpsBefore = spinUps();
    byte[] data = new byte[BLOCK];
    new Random(4).nextBytes(data);
    try (FSDataOutputStream out = fs.create(REREPLICATED, (short) 2)) {
      out.write(data);
    }
    DFSTestUtil.waitReplication(fs, REREPLICATED, (short) 2);
    assertEquals(List.of(Map.of(StorageType.DISK, 2)), storageTypesPerBlock(REREPLICATED),
        "WARM's primary and one staged backup replica");
    long offloadedBefore = sum(WriteOffloading::offloadedReplicas);
    // the NameNode now has the third node's backup receive a copy from another DataNode
    assertTrue(fs.setReplication(REREPLICATED, (short) 3));
    EnergyTestClusters.await("the block re-replicated to a third node", 60_000, () -> {
      try {
        return fs.getFileBlockLocations(REREPLICATED, 0, BLOCK)[0].getHosts().length == 3;
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    assertEquals(List.of(Map.of(StorageType.DISK, 3)), storageTypesPerBlock(REREPLICATED),
        "the re-replicated copy is staged on its node's primary volume");
    assertEquals(offloadedBefore + 1, sum(WriteOffloading::offloadedReplicas));
    assertEquals(spinUpsBefore, spinUps(), "no backup spun up for the transfer");
    wakeBackupsAndAwaitTheMoves();
    awaitPlacement(REREPLICATED);
    assertArrayEquals(data, read(REREPLICATED));
    assertHealthy(REREPLICATED);
  }

  @Test
  @Order(4)
  void pastTheStagingBoundAWriteGoesToItsBackupWhichWakes() throws Exception {
    awaitBackupsAsleep();
    long spinUpsBefore = spinUps();
    List<Long> offloadedBefore = perNode(WriteOffloading::offloadedReplicas);
    // 9 blocks send 18 replicas to backups on 3 nodes: some node gets at least 6, more than
    // the 4 it may stage
    second = write(SECOND, 9 * BLOCK, 2);
    List<Long> offloadedAfter = perNode(WriteOffloading::offloadedReplicas);
    for (int i = 0; i < offloadedAfter.size(); i++) {
      assertTrue(offloadedAfter.get(i) - offloadedBefore.get(i) <= STAGED_BLOCKS_PER_NODE,
          "node " + i + " staged " + (offloadedAfter.get(i) - offloadedBefore.get(i)));
    }
    // the power manager sees the backup's I/O at its next poll
    EnergyTestClusters.await("a write beyond the bound woke its backup", 30_000,
        () -> spinUps() > spinUpsBefore);
    wakeBackupsAndAwaitTheMoves();
    awaitPlacement(SECOND);
    assertArrayEquals(second, read(SECOND));
    assertArrayEquals(first, read(FIRST));
    assertHealthy(SECOND);
  }

  @Test
  @Order(5)
  void replicasStillStagedWhenTheirDataNodeRestartsAreMovedByHdfsMover() throws Exception {
    awaitBackupsAsleep();
    byte[] third = write(THIRD, BLOCK, 3);
    HostAddressedMiniDFSCluster dfs = cluster.getDfsCluster();
    DataNode restarted = null;
    for (DataNode dn : dfs.getDataNodes()) {
      if (EnergyTestClusters.manager(dn).offloading().stagedReplicas() > 0) {
        restarted = dn;
        break;
      }
    }
    assertNotNull(restarted, "some DataNode staged a replica of " + THIRD);
    MiniDFSCluster.DataNodeProperties stopped =
        dfs.stopDataNode(restarted.getDatanodeId().getXferAddr());
    assertTrue(dfs.restartDataNode(stopped, true), "restart " + restarted.getDisplayName());
    dfs.waitActive();
    EnergyTestClusters.await("every power manager registered again", 60_000, () -> {
      try {
        return EnergyTestClusters.managers(cluster).stream()
            .allMatch(m -> m.offloading() != null);
      } catch (AssertionError notYet) {
        return false;
      }
    });
    for (BackupDiskPowerManager manager : EnergyTestClusters.managers(cluster)) {
      manager.wakeAll("test: backups needed", Time.monotonicNow());
    }
    EnergyTestClusters.await("the other nodes' staged replicas moved", 60_000,
        () -> sum(WriteOffloading::stagedReplicas) == 0);
    // the restarted DataNode forgot what it staged: its replica stays on its primary volume
    assertEquals(Map.of(StorageType.DISK, 2, StorageType.ARCHIVE, 1),
        storageTypesPerBlock(THIRD).get(0));
    assertEquals(0, ToolRunner.run(new Configuration(cluster.getConfiguration()),
        new Mover.Cli(), new String[] {"-p", THIRD.toString()}), "hdfs mover -p " + THIRD);
    awaitPlacement(THIRD);
    assertArrayEquals(third, read(THIRD));
    assertHealthy(THIRD);
  }

  /** Wakes every backup (an operator's wake request) and waits until nothing is staged. */
  private static void wakeBackupsAndAwaitTheMoves() throws InterruptedException {
    for (BackupDiskPowerManager manager : EnergyTestClusters.managers(cluster)) {
      manager.wakeAll("test: backups needed", Time.monotonicNow());
    }
    EnergyTestClusters.await("staged replicas moved", 60_000,
        () -> sum(WriteOffloading::stagedReplicas) == 0);
  }

  private static void awaitBackupsAsleep() throws InterruptedException {
    EnergyTestClusters.await("every backup in standby", 60_000, () ->
        EnergyTestClusters.backups(cluster).stream()
            .allMatch(d -> d.state() == DiskPowerState.STANDBY));
  }

  private static long spinUps() {
    return EnergyTestClusters.backups(cluster).stream().mapToLong(d -> d.ledger().spinUps())
        .sum();
  }

  private interface Count {
    long of(WriteOffloading offloading);
  }

  private static List<Long> perNode(Count count) {
    List<Long> counts = new ArrayList<>();
    for (BackupDiskPowerManager manager : EnergyTestClusters.managers(cluster)) {
      WriteOffloading offloading = manager.offloading();
      assertNotNull(offloading, "the power manager found the off-loading dataset");
      counts.add(count.of(offloading));
    }
    return counts;
  }

  private static long sum(Count count) {
    return perNode(count).stream().mapToLong(Long::longValue).sum();
  }

  private static byte[] write(Path path, int bytes, long seed) throws Exception {
    byte[] data = new byte[bytes];
    new Random(seed).nextBytes(data);
    try (FSDataOutputStream out = fs.create(path)) {
      out.write(data);
    }
    return data;
  }

  private static byte[] read(Path path) throws Exception {
    FileStatus status = fs.getFileStatus(path);
    byte[] data = new byte[(int) status.getLen()];
    try (FSDataInputStream in = fs.open(path)) {
      in.readFully(0, data);
    }
    return data;
  }

  private static List<Map<StorageType, Integer>> storageTypesPerBlock(Path path)
      throws Exception {
    FileStatus status = fs.getFileStatus(path);
    List<Map<StorageType, Integer>> perBlock = new ArrayList<>();
    for (BlockLocation block : fs.getFileBlockLocations(status, 0, status.getLen())) {
      Map<StorageType, Integer> types = new TreeMap<>();
      for (StorageType type : block.getStorageTypes()) {
        types.merge(type, 1, Integer::sum);
      }
      perBlock.add(types);
    }
    return perBlock;
  }

  /** Moves inside a node reach the NameNode by incremental block report: poll for them. */
  private static void awaitPlacement(Path path) throws InterruptedException {
    EnergyTestClusters.await("one primary and two backup replicas per block", 30_000, () -> {
      try {
        return storageTypesPerBlock(path).stream().allMatch(
            t -> t.equals(Map.of(StorageType.DISK, 1, StorageType.ARCHIVE, 2)));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
  }

  private static void assertHealthy(Path path) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new DFSck(cluster.getConfiguration(), new PrintStream(out, true, StandardCharsets.UTF_8))
        .run(new String[] {path.toString(), "-files", "-blocks"});
    String report = out.toString(StandardCharsets.UTF_8);
    assertTrue(report.contains("is HEALTHY"), report);
  }
}
