package org.locus.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.energy.datanode.BackupDisk;
import org.locus.energy.datanode.BackupDiskPowerManager;
import org.locus.energy.disk.DiskPowerState;
import org.locus.kit.LocusMiniCluster;

/**
 * NameNode-side wake-ups: a DataNode stops, and the backups holding the other replicas of its
 * primary blocks are woken by the NameNode's {@code NodeLossWakeNotifier} before the first
 * read that needs them. 4 nodes, one primary and one backup volume each, replication 2 (one
 * primary, one backup per block), simulated disks with a 1 s spin-up. Costs about 30 s.
 */
class NodeLossWakeTest {
  private static final Path FILE = new Path("/data/blocks");
  private static final int BLOCK = 64 * 1024;
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = EnergyTestClusters.withEnergyFeature(
        LocusMiniCluster.builder(new File("target/test-clusters/node-loss")))
        .nodes(4)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .set("dfs.blocksize", Integer.toString(BLOCK))
        .set("dfs.replication", "2")
        .set("dfs.heartbeat.interval", "1")
        .set("dfs.namenode.stale.datanode.interval", "3000")
        .set("dfs.namenode.avoid.read.stale.datanode", "true")
        .set(EnergyConfigKeys.SPINUP_MS, "1000")
        // a woken disk waits this long for its access: far longer than the test's read takes
        .set(EnergyConfigKeys.STANDBY_TIMEOUT_MS, "15000")
        .start();
    FileSystem fs = cluster.getFileSystem();
    byte[] block = new byte[BLOCK];
    try (FSDataOutputStream out = fs.create(FILE)) {
      for (int i = 0; i < 12; i++) {
        block[0] = (byte) i;
        out.write(block);
      }
    }
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void backupsOfAStoppedNodesPrimariesAreAwakeBeforeTheFirstReadThatNeedsThem()
      throws Exception {
    EnergyTestClusters.await("every backup disk in standby", 30_000,
        () -> EnergyTestClusters.backups(cluster).stream()
            .allMatch(d -> d.state() == DiskPowerState.STANDBY));
    // the victim: the node with the most primary replicas; the backups its loss must wake
    Map<String, Set<String>> backupsOfPrimariesOn = new HashMap<>();
    for (BlockLocation location : cluster.getFileSystem().getFileBlockLocations(FILE, 0,
        Long.MAX_VALUE)) {
      String primaryHost = null;
      Set<String> backups = new HashSet<>();
      for (int i = 0; i < location.getNames().length; i++) {
        if (location.getStorageTypes()[i] == StorageType.DISK) {
          primaryHost = location.getNames()[i];
        } else {
          backups.add(location.getStorageIds()[i]);
        }
      }
      backupsOfPrimariesOn.computeIfAbsent(primaryHost, h -> new HashSet<>()).addAll(backups);
    }
    String victimAddr = backupsOfPrimariesOn.keySet().stream()
        .max((a, b) -> backupsOfPrimariesOn.get(a).size() - backupsOfPrimariesOn.get(b).size())
        .orElseThrow();
    Set<String> mustWake = backupsOfPrimariesOn.get(victimAddr);
    List<DataNode> dataNodes = cluster.getDfsCluster().getDataNodes();
    int victim = -1;
    for (int i = 0; i < dataNodes.size(); i++) {
      if (dataNodes.get(i).getDatanodeId().getXferAddr().equals(victimAddr)) {
        victim = i;
      }
    }
    List<BackupDisk> survivors = new ArrayList<>();
    List<BackupDiskPowerManager> managers = EnergyTestClusters.managers(cluster);
    for (int i = 0; i < managers.size(); i++) {
      if (i != victim) {
        for (BackupDisk disk : managers.get(i).disks()) {
          if (disk.backup()) {
            survivors.add(disk);
          }
        }
      }
    }
    List<BackupDisk> woken = survivors.stream()
        .filter(d -> mustWake.contains(d.storageId())).toList();
    assertFalse(woken.isEmpty(), "backups of " + victimAddr + "'s primaries: " + mustWake);

    cluster.getDfsCluster().stopDataNode(victim);
    String reason = "DataNode " + victimAddr + " stale (no heartbeat for 3000 ms): its"
        + " primaries' backups serve readers";
    EnergyTestClusters.await("the lost node's backups woken and ready", 60_000,
        () -> woken.stream().allMatch(d -> d.state() == DiskPowerState.IDLE
            && reason.equals(d.wakeReason())));
    // only those: a backup holding no replica of the lost primaries got no such request (on a
    // busy machine another node may look stale for a moment, so its reasons name that node)
    for (BackupDisk disk : survivors) {
      if (!mustWake.contains(disk.storageId())) {
        assertFalse(reason.equals(disk.lastWakeRequest()),
            disk.name() + " holds no backup of a lost primary");
      }
    }

    long spinUpsBefore = woken.stream().mapToLong(d -> d.ledger().spinUps()).sum();
    long stallBefore = woken.stream().mapToLong(d -> d.ledger().demandStallMillis()).sum();
    byte[] buffer = new byte[BLOCK];
    try (InputStream in = cluster.getFileSystem().open(FILE)) {
      for (int i = 0; i < 12; i++) {
        IOUtils.readFully(in, buffer, 0, BLOCK);
        assertEquals((byte) i, buffer[0], "block " + i);
      }
    }
    assertEquals(stallBefore, woken.stream().mapToLong(d -> d.ledger().demandStallMillis()).sum(),
        "no read waited for a spin-up");
    assertEquals(spinUpsBefore, woken.stream().mapToLong(d -> d.ledger().spinUps()).sum(),
        "no read had to spin a backup up");
  }
}
