package org.locus.energy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsTag;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.energy.datanode.BackupDisk;
import org.locus.energy.datanode.BackupDiskPowerManager;
import org.locus.energy.datanode.EnergyMetricsInfo;
import org.locus.energy.disk.BlockDevice;
import org.locus.energy.disk.DiskPowerBackend;
import org.locus.energy.disk.DiskPowerState;
import org.locus.energy.disk.HdparmDiskBackend;
import org.locus.energy.disk.MountTable;
import org.locus.kit.LocusMiniCluster;
import org.locus.kit.net.LocalAddressSocketFactory;
import org.slf4j.LoggerFactory;

/**
 * A backup disk that will not spin up (issue 46 item 4), on the real hdparm backend's command
 * path: each backup volume is mapped to a device of its own ({@code /dev/fake-dataN}) and every
 * power command runs a fake {@code hdparm} ({@code locus.energy.hdparm.path}, direct mode) whose
 * wake fails with exit 5 on one listed device and hangs on another. 4 nodes, one primary and one
 * backup volume each, one block with replication 4 (one primary, three backups). Its primary's
 * node stops; the NameNode's node-loss notifier wakes the three backups: one wake fails, one is
 * killed at the 3 s spin-up bound, one succeeds. A reader on the failing backup's node opened the
 * file before, so it holds all four locations, its own backup among the first: it must be refused
 * at once by the failed volume's DataNode and be served by the healthy backup with every byte
 * correct, and so must a reader opening the file afterwards. Both failed disks must show in the
 * metrics and the log with their device and exit code or bound, and their volumes must leave
 * their DataNodes so the NameNode stops offering those replicas. Costs about 22 s.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SpinUpFailureTest {
  private static final File FAKE = new File("target/spin-up-failure").getAbsoluteFile();
  private static final Path FILE = new Path("/data/one-block");
  private static final int BLOCK = 64 * 1024;
  private static LocusMiniCluster cluster;
  private static LogCapturer log;
  private static byte[] content;
  private static FileSystem readerOnTheFailingNode;
  private static FSDataInputStream openedBeforeTheFailures;
  private static LogCapturer clientLog;
  private static BackupDisk failing;
  private static BackupDisk hanging;
  private static BackupDisk healthy;
  private static final Map<BackupDisk, BackupDiskPowerManager> managerOf = new HashMap<>();

  /**
   * The power manager with the hdparm backend, each volume on the device named for its
   * directory, since the cluster's volumes share one file system that takes no power commands.
   */
  public static class FakeDevicePowerManager extends BackupDiskPowerManager {
    @Override
    protected DiskPowerBackend createBackend(EnergySettings settings) {
      return new HdparmDiskBackend(settings, new MountTable(List.of())) {
        @Override
        public BlockDevice resolve(File volumeDir) {
          return new BlockDevice(volumeDir, "/dev/fake-" + volumeDir.getName());
        }
      };
    }
  }

  @BeforeAll
  static void startClusterAndLoseThePrimaryOfABlockWhoseBackupsFailToSpinUp() throws Exception {
    installFakeHdparm();
    cluster = EnergyTestClusters.withEnergyFeature(
        LocusMiniCluster.builder(new File("target/test-clusters/spin-up-failure")))
        .nodes(4)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .set("dfs.blocksize", Integer.toString(BLOCK))
        .set("dfs.replication", "4")
        .set("dfs.heartbeat.interval", "1")
        .set("dfs.namenode.stale.datanode.interval", "3000")
        .set("dfs.namenode.avoid.read.stale.datanode", "true")
        .set("dfs.datanode.failed.volumes.tolerated", "-1")
        // no re-replication during the test: a new copy on a failed backup's node (its DISK
        // volume) would serve readers there, and the refusal of the failed volume went unseen
        .set("dfs.namenode.redundancy.interval.seconds", "600")
        .set("dfs.datanode.plugins", FakeDevicePowerManager.class.getName())
        .set(EnergyConfigKeys.BACKEND, "hdparm")
        .set(EnergyConfigKeys.HELPER_MODE, "direct")
        .set(EnergyConfigKeys.HDPARM_PATH, new File(FAKE, "hdparm").getPath())
        .set(EnergyConfigKeys.SPINUP_MS, "1000")
        .set(EnergyConfigKeys.SPINUP_TIMEOUT_MS, "3000")
        .start();
    content = new byte[BLOCK];
    new Random(46).nextBytes(content);
    try (FSDataOutputStream out = cluster.getFileSystem().create(FILE)) {
      out.write(content);
    }

    BlockLocation location =
        cluster.getFileSystem().getFileBlockLocations(FILE, 0, BLOCK)[0];
    String primaryAddr = null;
    List<String> backupIds = new ArrayList<>();
    for (int i = 0; i < location.getNames().length; i++) {
      if (location.getStorageTypes()[i] == StorageType.DISK) {
        primaryAddr = location.getNames()[i];
      } else {
        backupIds.add(location.getStorageIds()[i]);
      }
    }
    assertEquals(3, backupIds.size(), "one primary, three backups: " + location);
    List<DataNode> dataNodes = cluster.getDfsCluster().getDataNodes();
    int primaryNode = -1;
    Map<String, BackupDisk> backupById = new HashMap<>();
    for (int i = 0; i < dataNodes.size(); i++) {
      if (dataNodes.get(i).getDatanodeId().getXferAddr().equals(primaryAddr)) {
        primaryNode = i;
      }
      BackupDiskPowerManager manager = EnergyTestClusters.manager(dataNodes.get(i));
      for (BackupDisk disk : manager.disks()) {
        backupById.put(disk.storageId(), disk);
        managerOf.put(disk, manager);
      }
    }
    failing = backupById.get(backupIds.get(0));
    hanging = backupById.get(backupIds.get(1));
    healthy = backupById.get(backupIds.get(2));
    Files.writeString(new File(FAKE, "fails").toPath(),
        failing.device().devicePath() + "\n", StandardCharsets.UTF_8);
    Files.writeString(new File(FAKE, "hangs").toPath(),
        hanging.device().devicePath() + "\n", StandardCharsets.UTF_8);

    EnergyTestClusters.await("the block's backups in standby", 30_000,
        () -> List.of(failing, hanging, healthy).stream()
            .allMatch(d -> d.state() == DiskPowerState.STANDBY));
    log = LogCapturer.captureLogs(LoggerFactory.getLogger(BackupDisk.class));
    readerOnTheFailingNode = clientOn(dataNodeOf(failing).getDatanodeId().getIpAddr());
    openedBeforeTheFailures = readerOnTheFailingNode.open(FILE);
    clientLog = LogCapturer.captureLogs(LoggerFactory.getLogger(DFSClient.class));
    cluster.getDfsCluster().stopDataNode(primaryNode);
    // the guarantee is that failures are recorded, not when: the deadline only ends a hung test
    EnergyTestClusters.await("both failed backups marked failed", 60_000,
        () -> failing.spinUpFailure() != null && hanging.spinUpFailure() != null);
  }

  /** hdparm that logs its arguments; its wake fails or hangs on the devices listed. */
  private static void installFakeHdparm() throws IOException {
    assertTrue(FAKE.isDirectory() || FAKE.mkdirs());
    File script = new File(FAKE, "hdparm");
    Files.writeString(script.toPath(), String.join("\n",
        "#!/bin/sh",
        "dir=$(dirname \"$0\")",
        "echo \"$*\" >> \"$dir/calls\"",
        "for device; do :; done",
        "if [ \"$1\" = --read-sector ]; then",
        "  if grep -qxF \"$device\" \"$dir/fails\" 2>/dev/null; then",
        "    echo \"$device: reading sector 0: Input/output error\" >&2; exit 5",
        "  fi",
        "  if grep -qxF \"$device\" \"$dir/hangs\" 2>/dev/null; then exec sleep 600; fi",
        "fi",
        "exit 0", ""), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script.toPath(), PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String name : List.of("calls", "fails", "hangs")) {
      Files.deleteIfExists(new File(FAKE, name).toPath());
    }
  }

  /** @return a client whose connections leave from {@code address}, a DataNode's own */
  private static FileSystem clientOn(String address) throws IOException {
    Configuration conf = new Configuration(cluster.getConfiguration());
    conf.set("hadoop.rpc.socket.factory.class.default",
        LocalAddressSocketFactory.class.getName());
    conf.set(LocalAddressSocketFactory.BIND_ADDRESS_KEY, address);
    return FileSystem.newInstance(cluster.getFileSystem().getUri(), conf);
  }

  @AfterAll
  static void stopCluster() {
    if (log != null) {
      log.stopCapturing();
    }
    if (clientLog != null) {
      clientLog.stopCapturing();
    }
    IOUtils.closeStream(openedBeforeTheFailures);
    IOUtils.closeStream(readerOnTheFailingNode);
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void readersOfTheBlockAreServedByTheHealthyBackupEveryByteCorrect() throws Exception {
    String healthyNode = dataNodeOf(healthy).getDatanodeId().getXferAddr();
    String failingNode = dataNodeOf(failing).getDatanodeId().getXferAddr();
    byte[] read = new byte[BLOCK];
    IOUtils.readFully(openedBeforeTheFailures, read, 0, BLOCK);
    assertArrayEquals(content, read);
    assertEquals(healthyNode, ((HdfsDataInputStream) openedBeforeTheFailures)
        .getCurrentDatanode().getXferAddr());
    assertTrue(clientLog.getOutput().lines().anyMatch(l -> l.contains(failingNode)
        && l.contains("ReplicaNotFoundException")),
        "the reader asked its own failed backup, which refused at once: "
        + clientLog.getOutput());
    read = new byte[BLOCK];
    try (FSDataInputStream in = cluster.getFileSystem().open(FILE)) {
      IOUtils.readFully(in, read, 0, BLOCK);
      assertEquals(-1, in.read(), "one block");
    }
    assertArrayEquals(content, read);
    assertNull(healthy.spinUpFailure());
  }

  @Test
  @Order(2)
  void theBackupWhoseHdparmFailedIsReportedFailedWithItsDeviceAndExitCode() throws Exception {
    String device = failing.device().devicePath();
    assertCommandRan("--read-sector 0 " + device);
    assertTrue(failing.spinUpFailure().contains("failed with exit 5"), failing.spinUpFailure());
    assertLogged(device, "failed with exit 5: " + device + ": reading sector 0: Input/output"
        + " error");
    assertReportedFailed(failing);
  }

  @Test
  @Order(3)
  void theBackupWhoseHdparmHungWasKilledAtTheSpinUpBoundAndReportedFailed() throws Exception {
    String device = hanging.device().devicePath();
    assertCommandRan("--read-sector 0 " + device);
    assertLogged(device, "did not finish within 3000 ms and was killed"
        + " (locus.energy.spinup.timeout.ms)");
    assertReportedFailed(hanging);
  }

  @Test
  @Order(4)
  void theFailedBackupsLeaveTheirDataNodesAndTheNameNodeStopsOfferingThem() throws Exception {
    Set<String> failedIds = Set.of(failing.storageId(), hanging.storageId());
    for (BackupDisk disk : List.of(failing, hanging)) {
      DataNode dn = dataNodeOf(disk);
      assertTrue(dn.isDatanodeUp(), "the DataNode keeps serving from its primary");
      try (FsDatasetSpi.FsVolumeReferences volumes = dn.getFSDataset().getFsVolumeReferences()) {
        for (FsVolumeSpi volume : volumes) {
          assertFalse(volume.getStorageID().equals(disk.storageId()), disk.name() + " removed");
        }
      }
    }
    EnergyTestClusters.await("the NameNode no longer lists the failed backups", 30_000, () -> {
      try {
        Set<String> listed = new HashSet<>(List.of(cluster.getFileSystem()
            .getFileBlockLocations(FILE, 0, BLOCK)[0].getStorageIds()));
        return listed.contains(healthy.storageId()) && listed.stream()
            .noneMatch(failedIds::contains);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    });
  }

  private static void assertCommandRan(String arguments) throws IOException {
    List<String> calls = Files.readAllLines(new File(FAKE, "calls").toPath());
    assertTrue(calls.contains(arguments), "hdparm " + arguments + " ran: " + calls);
  }

  /** One ERROR line names the device, says it did not spin up and why. */
  private static void assertLogged(String device, String why) {
    long lines = log.getOutput().lines()
        .filter(l -> l.contains("ERROR") && l.contains(device) && l.contains("did not spin up")
            && l.contains(why) && l.contains("taken out of service"))
        .count();
    assertEquals(1, lines, log.getOutput());
  }

  /** Its disk record says SpinUpFailed 1, its node record counts one spin-up failure. */
  private static void assertReportedFailed(BackupDisk disk) {
    BackupDiskPowerManager manager = managerOf.get(disk);
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    DefaultMetricsSystem.instance().getSource(manager.sourceName()).getMetrics(collector, true);
    Map<String, Number> diskRecord = null;
    Map<String, Number> nodeRecord = null;
    for (MetricsRecord record : collector.getRecords()) {
      Map<String, Number> values = new HashMap<>();
      for (AbstractMetric metric : record.metrics()) {
        values.put(metric.name(), metric.value());
      }
      if (record.name().equals(EnergyMetricsInfo.NODE_RECORD)) {
        nodeRecord = values;
      }
      for (MetricsTag tag : record.tags()) {
        if (tag.name().equals(EnergyMetricsInfo.Device.name())
            && tag.value().equals(disk.device().devicePath())) {
          diskRecord = values;
        }
      }
    }
    assertEquals(1, diskRecord.get(EnergyMetricsInfo.SpinUpFailed.name()).intValue(),
        disk.name());
    assertEquals(1, nodeRecord.get(EnergyMetricsInfo.SpinUpFailures.name()).longValue(),
        disk.name());
  }

  private static DataNode dataNodeOf(BackupDisk disk) {
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      if (EnergyTestClusters.manager(dn) == managerOf.get(disk)) {
        return dn;
      }
    }
    throw new AssertionError("no DataNode runs the manager of " + disk.name());
  }
}
