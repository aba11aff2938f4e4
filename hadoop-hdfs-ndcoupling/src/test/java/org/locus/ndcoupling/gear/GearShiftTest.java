package org.locus.ndcoupling.gear;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.test.MetricsAsserts;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.ndcoupling.GearTestCluster;

/**
 * Gears on one NameNode, on an embedded cluster with the feature's keys: a shift down that
 * would strand a block is refused; shifting down keeps files readable; writes in low gear are
 * logged; the log survives a NameNode restart; a sequential gear-up (NormalHDFS: the NameNode's
 * replication queue, a connection per block) puts every logged block on its intended node.
 *
 * <p>One cluster for the class; the tests run in order, as one gear cycle.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GearShiftTest {
  private static GearTestCluster cluster;
  private static Map<org.apache.hadoop.fs.Path, byte[]> topGearFiles;
  private static Map<org.apache.hadoop.fs.Path, byte[]> lowGearFiles;

  @BeforeAll
  static void start() throws IOException {
    cluster = GearTestCluster.start("gear-shift", null);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void refusesAShiftDownThatWouldStrandABlockAndChangesNothing() throws Exception {
    DistributedFileSystem fs = cluster.fs();
    org.apache.hadoop.fs.Path single = null;
    for (int i = 0; i < 40 && single == null; i++) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/strand/f" + i);
      try (var out = fs.create(file, (short) 1)) {
        out.write(new byte[1024]);
      }
      String host = fs.getFileBlockLocations(file, 0, 1)[0].getHosts()[0];
      if (host.equals("127.0.0.4") || host.equals("127.0.0.5")) {
        single = file;
      }
    }
    assertTrue(single != null, "one of 40 single-replica files landed on node 3 or 4");
    RemoteException refused = assertThrows(RemoteException.class,
        () -> cluster.gears().shiftDown(0));
    assertTrue(refused.getMessage().contains("cannot shift to gear 0"), refused.getMessage());
    assertTrue(refused.getMessage().contains(single.toUri().getPath()), refused.getMessage());
    Map<String, String> status = cluster.status();
    assertEquals("1", status.get("gear"));
    for (String host : cluster.hosts()) {
      assertTrue(status.get("node." + host).contains("admin=NORMAL"), status.toString());
    }
    assertTrue(fs.delete(new org.apache.hadoop.fs.Path("/strand"), true));
  }

  @Test
  @Order(2)
  void shiftingDownKeepsEveryFileReadable() throws Exception {
    DistributedFileSystem fs = cluster.fs();
    topGearFiles = GearTestCluster.writeFiles(fs, "/top", 12, 1);
    assertEquals(List.of("127.0.0.4", "127.0.0.5"), cluster.shifter().down(0));
    Map<String, String> status = cluster.status();
    assertEquals("0", status.get("gear"));
    assertTrue(status.get("node.127.0.0.4").startsWith("off admin=IN_MAINTENANCE"),
        status.toString());
    assertEquals(2, cluster.cluster().getDfsCluster().getDataNodes().size());
    assertReadBack(fs, topGearFiles);
  }

  @Test
  @Order(3)
  void aLowGearWriteGoesToAStandInAndIsLogged() throws Exception {
    DistributedFileSystem fs = cluster.fs();
    lowGearFiles = GearTestCluster.writeFiles(fs, "/low", 16, 2);
    List<UpdateLogEntry> entries = UpdateLog.readPending(cluster.logFile());
    // The plan's four nodes take first replicas in turn, so half are meant for off nodes.
    assertEquals(8, entries.size(), entries.toString());
    for (UpdateLogEntry entry : entries) {
      assertTrue(List.of("127.0.0.4", "127.0.0.5").contains(entry.intended()), entry.toString());
      assertTrue(List.of("127.0.0.2", "127.0.0.3").contains(entry.standIn()), entry.toString());
      assertTrue(entry.path().startsWith("/low/"), entry.toString());
      assertTrue(entry.inodeId() > 0, entry.toString());
      assertTrue(hostsOf(fs, entry.path()).contains(entry.standIn()), entry.toString());
    }
    assertEquals("8", cluster.status().get("pending-entries"));
    MetricsRecordBuilder gears = MetricsAsserts.getMetrics("LocusGears");
    MetricsAsserts.assertGauge("PendingLogEntries", 8, gears);
    MetricsAsserts.assertGauge("GearLevel", 0, gears);
    MetricsAsserts.assertGauge("LogSizeBytes", Files.size(cluster.logFile()), gears);
    assertReadBack(fs, lowGearFiles);
  }

  @Test
  @Order(4)
  void theLogAndTheGearSurviveANameNodeRestart() throws Exception {
    cluster.restartNameNode();
    Map<String, String> status = cluster.status();
    assertEquals("0", status.get("gear"));
    assertEquals("8", status.get("pending-entries"));
    // The restarted NameNode has not seen the off nodes; the hosts file it was refreshed from
    // still holds them in maintenance, so they rejoin without a replication storm.
    assertTrue(status.get("node.127.0.0.5").startsWith("off"), status.toString());
    String hosts = Files.readString(cluster.logFile().resolveSibling("dfs.hosts.json"));
    assertTrue(hosts.matches("(?s).*127\\.0\\.0\\.5[^}]*IN_MAINTENANCE.*"), hosts);
  }

  @Test
  @Order(5)
  void aSequentialGearUpPutsEveryLoggedBlockOnItsIntendedNode() throws Exception {
    List<UpdateLogEntry> entries = UpdateLog.readPending(cluster.logFile());
    GearUpReport report = cluster.shifter().up(1, "sequential", "sequential");
    assertEquals("done", report.state(), report.toText());
    assertEquals(8, report.blocks(), report.toText());
    assertEquals(0, report.blocksPending(), report.toText());
    assertTrue(UpdateLog.readPending(cluster.logFile()).isEmpty());
    DistributedFileSystem fs = cluster.fs();
    for (UpdateLogEntry entry : entries) {
      assertTrue(hostsOf(fs, entry.path()).contains(entry.intended()), entry.toString());
    }
    // The stand-ins' extra replicas go at their next heartbeats: two replicas again.
    GenericTestUtils.waitFor(() -> entries.stream().allMatch(e -> {
      try {
        List<String> hosts = hostsOf(fs, e.path());
        return hosts.size() == 2 && !hosts.contains(e.standIn());
      } catch (IOException ex) {
        throw new IllegalStateException(ex);
      }
    }), 100, 60_000);
    assertEquals("1", cluster.status().get("gear"));
    assertReadBack(fs, lowGearFiles);
    assertReadBack(fs, topGearFiles);
  }


  static List<String> hostsOf(DistributedFileSystem fs, String path) throws IOException {
    FileStatus file = fs.getFileStatus(new org.apache.hadoop.fs.Path(path));
    BlockLocation[] blocks = fs.getFileBlockLocations(file, 0, file.getLen());
    return Arrays.asList(blocks[0].getHosts());
  }

  static void assertReadBack(DistributedFileSystem fs,
      Map<org.apache.hadoop.fs.Path, byte[]> files) throws IOException {
    for (Map.Entry<org.apache.hadoop.fs.Path, byte[]> file : files.entrySet()) {
      byte[] read = new byte[file.getValue().length];
      try (FSDataInputStream in = fs.open(file.getKey())) {
        in.readFully(read);
        assertFalse(in.read() >= 0, file.getKey() + " is longer than written");
      }
      assertArrayEquals(file.getValue(), read, file.getKey().toString());
    }
  }
}
