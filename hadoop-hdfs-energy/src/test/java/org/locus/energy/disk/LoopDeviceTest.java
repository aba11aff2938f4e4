package org.locus.energy.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.datanode.BackupDisk;
import org.locus.energy.datanode.EnergyMetricsInfo;
import org.locus.energy.datanode.EnergyMetricsSource;
import org.locus.kit.LocusMiniCluster;

/**
 * The real hdparm path against a real loop device (this host has no spinning disk): a clear
 * unsupported-device error, and a DataNode whose volumes live on the loop device keeps serving
 * with its power manager running the real backend.
 */
class LoopDeviceTest {
  private static final File IMAGE = new File("target/loop-test/disk.img").getAbsoluteFile();
  private static final File MOUNT = new File("target/loop-test/mnt").getAbsoluteFile();
  private static String loopDevice;
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void mountAnExt4LoopDeviceAndStartAClusterOnIt() throws Exception {
    assertTrue(MOUNT.mkdirs() || MOUNT.isDirectory());
    run("truncate", "-s", "256M", IMAGE.getPath());
    loopDevice = run("losetup", "-f", "--show", IMAGE.getPath()).trim();
    run("mkfs.ext4", "-q", loopDevice);
    run("mount", loopDevice, MOUNT.getPath());
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(new File(MOUNT, "cluster"))
        .nodes(2)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .set("dfs.replication", "2")
        // The NameNode counts every block being written to a node as a whole block of the new
        // file's size: with 128 MiB blocks on this 256 MiB disk, one list of spinning backups
        // being written beside the test's file left no room for it.
        .set("dfs.blocksize", "1048576");
    for (String[] kv : EnergyConfigKeys.STOCK_KEYS) {
      builder.set(kv[0], kv[1]);
    }
    cluster = builder.set(EnergyConfigKeys.BACKEND, "hdparm")
        .set(EnergyConfigKeys.HELPER_MODE, "direct")
        .set(EnergyConfigKeys.HDPARM_PATH, "/usr/sbin/hdparm")
        .set(EnergyConfigKeys.POLL_INTERVAL_MS, "100")
        .start();
  }

  @AfterAll
  static void stopClusterAndDetach() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    if (loopDevice != null) {
      run("umount", MOUNT.getPath());
      run("losetup", "-d", loopDevice);
    }
    assertTrue(IMAGE.delete());
  }

  private static String run(String... argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), String.join(" ", argv) + ": " + out);
    return out;
  }

  private static HdparmDiskBackend realHdparm() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set(EnergyConfigKeys.HELPER_MODE, "direct");
    conf.set(EnergyConfigKeys.HDPARM_PATH, "/usr/sbin/hdparm");
    return new HdparmDiskBackend(conf, MountTable.ofThisProcess());
  }

  @Test
  void theMountTableNamesTheLoopDeviceAsUnsupported() throws Exception {
    UnsupportedDeviceException e = assertThrows(UnsupportedDeviceException.class,
        () -> realHdparm().resolve(MOUNT));
    assertTrue(e.getMessage().contains(loopDevice) && e.getMessage().contains("loop"),
        e.getMessage());
  }

  @Test
  void realHdparmOnTheLoopDeviceIsReportedAsUnsupported() throws Exception {
    BlockDevice device = new BlockDevice(MOUNT, loopDevice);
    UnsupportedDeviceException e = assertThrows(UnsupportedDeviceException.class,
        () -> realHdparm().spinDown(device, false));
    assertTrue(e.getMessage().contains(loopDevice)
        && e.getMessage().contains("no ATA power commands")
        && e.getMessage().contains("Invalid argument"), e.getMessage());
  }

  @Test
  void theDataNodeKeepsServingAndItsDisksStaySpinningWithTheReason() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    byte[] data = "served from a loop device\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
    Path file = new Path("/loop/data");
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(data);
    }
    byte[] back = new byte[data.length];
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(back);
    }
    assertArrayEquals(data, back);

    List<BackupDisk> backups = new ArrayList<>();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (backups.size() < 2 && System.nanoTime() < deadline) {
      backups.clear();
      for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
        EnergyMetricsSource source = (EnergyMetricsSource) DefaultMetricsSystem.instance()
            .getSource(EnergyMetricsInfo.sourceName(dn.getDisplayName()));
        if (source != null) {
          source.manager().disks().stream().filter(BackupDisk::backup).forEach(backups::add);
        }
      }
      Thread.sleep(100);
    }
    assertEquals(2, backups.size());
    for (BackupDisk disk : backups) {
      assertFalse(disk.managed());
      assertTrue(disk.unmanagedReason().contains(loopDevice), disk.unmanagedReason());
      assertFalse(disk.state() == DiskPowerState.STANDBY);
    }
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      assertTrue(dn.isDatanodeUp());
    }
  }
}
