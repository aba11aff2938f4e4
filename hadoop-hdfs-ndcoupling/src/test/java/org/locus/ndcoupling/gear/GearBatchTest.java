package org.locus.ndcoupling.gear;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.ndcoupling.GearTestCluster;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.shift.GearShifter;

/**
 * Batch issuance and batch transfer on one NameNode: every stand-in sends all blocks it holds
 * for a returning node over one connection, and the stand-ins' extra replicas go; a returning
 * DataNode killed in the middle of a batch loses no block (fsck HEALTHY once the NameNode has
 * noticed). One cluster; the tests run in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GearBatchTest {
  private static GearTestCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    Configuration extra = new Configuration(false);
    // Slow enough that a batch is still streaming when the test kills its target.
    extra.set(NdCouplingConfigKeys.BATCH_TRANSFER_BANDWIDTH_PER_SEC, "1048576");
    cluster = GearTestCluster.start("gear-batch", extra);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void aBatchGearUpSendsEachStandInsBlocksOverOneConnection() throws Exception {
    DistributedFileSystem fs = cluster.fs();
    cluster.shifter().down(0);
    Map<Path, byte[]> files = GearTestCluster.writeFiles(fs, "/batch", 24, 3);
    List<UpdateLogEntry> entries = UpdateLog.readPending(cluster.logFile());
    assertEquals(12, entries.size());
    long pairs = entries.stream().map(e -> e.standIn() + ">" + e.intended()).distinct().count();
    GearUpReport report = cluster.shifter().up(1, "batch", "batch");
    assertEquals("done", report.state(), report.toText());
    assertEquals(12, report.blocks(), report.toText());
    assertEquals(pairs, report.connections(), "one connection per stand-in and intended node: "
        + report.toText());
    for (UpdateLogEntry entry : entries) {
      assertTrue(GearShiftTest.hostsOf(fs, entry.path()).contains(entry.intended()),
          entry.toString());
    }
    GenericTestUtils.waitFor(() -> entries.stream().allMatch(e -> {
      try {
        return !GearShiftTest.hostsOf(fs, e.path()).contains(e.standIn());
      } catch (IOException ex) {
        throw new IllegalStateException(ex);
      }
    }), 100, 60_000);
    assertTrue(UpdateLog.readPending(cluster.logFile()).isEmpty());
    GearShiftTest.assertReadBack(fs, files);
  }

  @Test
  @Order(2)
  void aDataNodeKilledDuringABatchTransferLosesNoBlock() throws Exception {
    DistributedFileSystem fs = cluster.fs();
    cluster.shifter().down(0);
    Map<Path, byte[]> files = GearTestCluster.writeFiles(fs, "/killed", 120, 4);
    for (String host : List.of("127.0.0.4", "127.0.0.5")) {
      cluster.on(host);
    }
    GenericTestUtils.waitFor(() -> {
      try {
        Map<String, String> status = GearShifter.parse(cluster.gears().status());
        return status.get("node.127.0.0.4").contains("live=true")
            && status.get("node.127.0.0.5").contains("live=true");
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 100, 60_000);
    GearUpReport report = GearUpReport.parse(cluster.gears().startGearUp(1, "batch", "batch"));
    GenericTestUtils.waitFor(() -> {
      try {
        GearUpReport now = GearUpReport.parse(cluster.gears().gearUpProgress());
        return now.step() >= 3 && now.blocksMoved() > 0 || !"running".equals(now.state());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 20, 60_000);
    report = GearUpReport.parse(cluster.gears().gearUpProgress());
    assertEquals("running", report.state(), "the batch was still streaming: " + report.toText());
    cluster.off("127.0.0.5");
    GenericTestUtils.waitFor(() -> {
      try {
        return !"running".equals(GearUpReport.parse(cluster.gears().gearUpProgress()).state());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 100, 120_000);
    GenericTestUtils.waitFor(() -> {
      try {
        return cluster.fsck().contains("Status: HEALTHY")
            && cluster.fsck().contains("Under-replicated blocks:\t0");
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, 500, 120_000);
    GearShiftTest.assertReadBack(fs, files);
  }

}
