package org.locus.ndcoupling.gear;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.blockmanagement.GearPlacementRule;
import org.apache.hadoop.hdfs.server.blockmanagement.RoutingBlockPlacementPolicy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.kit.LocusMiniCluster;
import org.locus.ndcoupling.GearTestCluster;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * With the feature's keys but no gear plan, the gears do nothing: the rule has no state (every
 * block is left to the default placement), no gear directory or log is written, no gear
 * service listens, and files are written and read as on stock HDFS.
 */
class GearsOffIsStockTest {
  private static LocusMiniCluster cluster;
  private static final File BASE = new File("target/test-clusters/gears-off");

  @BeforeAll
  static void start() throws IOException {
    org.apache.hadoop.fs.FileUtil.fullyDelete(BASE);
    Configuration keys = LocusMiniCluster.featureKeys("ndcoupling");
    cluster = LocusMiniCluster.builder(BASE).nodes(3).setAll(keys)
        .set(NdCouplingConfigKeys.GEAR_DIR, new File(BASE, "gears").getAbsolutePath())
        .set("dfs.replication", "2").start();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void withoutAPlanTheGearsDecideNothing() throws Exception {
    RoutingBlockPlacementPolicy router = (RoutingBlockPlacementPolicy) cluster.getDfsCluster()
        .getNamesystem().getBlockManager().getBlockPlacementPolicy();
    assertNull(router.rule(GearPlacementRule.class).orElseThrow().state(),
        "no plan, no gear state: the rule answers no block");
    var files = GearTestCluster.writeFiles(cluster.getFileSystem(), "/stock", 6, 7);
    GearShiftTest.assertReadBack(cluster.getFileSystem(), files);
    assertFalse(new File(BASE, "gears").exists(), "no gear directory, no update log");
    assertThrows(ConnectException.class, () -> {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1",
            NdCouplingConfigKeys.GEAR_RPC_PORT_DEFAULT), 2000);
      }
    }, "no gear service listens");
    assertEquals(2, cluster.getFileSystem().getFileStatus(files.keySet().iterator().next())
        .getReplication());
  }
}
