package org.locus.boost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.blockmanagement.RoutingBlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.SuperlocalPlacementRule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.apache.hadoop.hdfs.server.blockmanagement.GearPlacementRule;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.gear.GearUpReport;
import org.locus.ndcoupling.gear.UpdateLog;
import org.locus.ndcoupling.gear.UpdateLogEntry;
import org.locus.ndcoupling.rpc.GearClient;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.kat.placement.KeyAwarePlacementRule;
import org.locus.kat.placement.OwnerPaths;
import org.locus.kit.ClusterNode;
import org.locus.kit.LocusMiniCluster;
import org.locus.placement.PlacementConfigKeys;

/**
 * KAT, BoostDFS and the NDCouplingHDFS gears on one NameNode, with the three features'
 * documented keys (conf/features/kat.xml, boost.xml and ndcoupling.xml, their list keys joined
 * as {@code --feature kat --feature boost --feature ndcoupling} joins them): the placement
 * router asks the three rules in that order, so a declared KAT dataset's files get their owner
 * replica, a SUPERLOCAL path gets its one REPLICATED replica, and a plain file written in low
 * gear goes to its stand-in and is logged, then reaches its intended node at gear-up. The test
 * JVM writes from outside the cluster, where stock placement would choose nodes at random. One
 * 4-node cluster; the gear cycle runs first (its nodes stay up: maintenance only), about 20 s.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ThreeFeaturesOnOneNameNodeTest {
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;
  private static SuperlocalPaths paths;
  private static int rpcPort;

  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @BeforeAll
  static void startCluster() throws Exception {
    Configuration kat = LocusMiniCluster.featureKeys("kat");
    Configuration boost = BoostTestClusters.featureKeys();
    Configuration gears = LocusMiniCluster.featureKeys("ndcoupling");
    java.io.File base = new java.io.File("target/test-clusters/three-features");
    org.apache.hadoop.fs.FileUtil.fullyDelete(base);
    rpcPort = freePort();
    cluster = BoostTestClusters.fourNodes("three-features")
        .setAll(kat)
        .setAll(boost)
        .setAll(gears)
        .set(PlacementConfigKeys.RULES, kat.get(PlacementConfigKeys.RULES) + ","
            + boost.get(PlacementConfigKeys.RULES) + "," + gears.get(PlacementConfigKeys.RULES))
        .set("dfs.namenode.plugins", kat.get("dfs.namenode.plugins") + ","
            + gears.get("dfs.namenode.plugins"))
        .set(NdCouplingConfigKeys.GEAR_PLAN, "127.0.0.2,127.0.0.3;127.0.0.4,127.0.0.5")
        .set(NdCouplingConfigKeys.GEAR_RPC_ADDRESS, "127.0.0.1:" + rpcPort)
        .set(NdCouplingConfigKeys.BATCH_TRANSFER_PORT, Integer.toString(freePort()))
        .set(NdCouplingConfigKeys.GEAR_DIR, new java.io.File(base, "gears").getAbsolutePath())
        .start();
    fs = cluster.getFileSystem();
    paths = new SuperlocalPaths(fs, SuperlocalLayout.from(cluster.getConfiguration()));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void aLowGearWriteIsLoggedForItsIntendedNodeAndReachesItAtGearUp() throws Exception {
    try (GearClient client = GearClient.connect(cluster.getConfiguration(),
        new java.net.InetSocketAddress("127.0.0.1", rpcPort))) {
      client.gears().shiftDown(0);
      Path dir = new Path("/gears/low");
      for (int i = 0; i < 4; i++) {
        BoostTestClusters.write(fs, new Path(dir, "f" + i), 1);
      }
      List<UpdateLogEntry> entries = UpdateLog.readPending(new java.io.File(
          "target/test-clusters/three-features/gears/update.log").toPath());
      assertEquals(2, entries.size(), entries.toString());
      GearUpReport report = GearUpReport.parse(client.gears().startGearUp(1, "batch",
          "batch"));
      long deadline = System.currentTimeMillis() + 60_000;
      while ("running".equals(report.state()) && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
        report = GearUpReport.parse(client.gears().gearUpProgress());
      }
      assertEquals("done", report.state(), report.toText());
      for (UpdateLogEntry entry : entries) {
        List<BlockCopies> blocks = paths.blocks(new Path(entry.path()));
        assertTrue(blocks.get(0).replicas().stream()
            .anyMatch(r -> r.host().equals(entry.intended())), entry + ": " + blocks);
      }
    }
  }

  @Test
  void theNameNodesPolicyIsTheRouterWithTheThreeRulesInListOrder() {
    RoutingBlockPlacementPolicy router = (RoutingBlockPlacementPolicy) cluster.getDfsCluster()
        .getNamesystem().getBlockManager().getBlockPlacementPolicy();
    List<String> rules = router.rules().stream().map(r -> r.getClass().getName()).toList();
    assertEquals(List.of(KeyAwarePlacementRule.class.getName(),
        SuperlocalPlacementRule.class.getName(), GearPlacementRule.class.getName()), rules);
  }

  /** Every node owns a file; 4 x 2 blocks all with their owner by chance: 1 in 256. */
  @Test
  void aDeclaredKatDatasetsFilesGetAReplicaOnTheirOwner() throws Exception {
    Path dataset = new Path("/kat/words");
    OwnerPaths.declare(fs, dataset);
    for (ClusterNode node : cluster.nodes()) {
      Path bucket = OwnerPaths.bucketFile(dataset, node.host(), 0);
      BoostTestClusters.write(fs, bucket, 2);
      List<BlockCopies> blocks = paths.blocks(bucket);
      assertEquals(2, blocks.size());
      for (BlockCopies block : blocks) {
        assertTrue(block.replicas().stream().anyMatch(r -> r.host().equals(node.host())),
            "owner " + node.host() + ": " + block);
      }
    }
  }

  @Test
  void aSuperlocalPathGetsExactlyOneReplicatedReplica() throws Exception {
    Path dir = BoostTestClusters.taggedDirectory(fs, paths, "/boost/input");
    BoostTestClusters.write(fs, new Path(dir, "part-0"), 4);
    List<BlockCopies> blocks = paths.blocks(dir);
    assertEquals(4, blocks.size());
    for (BlockCopies block : blocks) {
      assertEquals(1, block.superlocalReplicas(), block.toString());
      assertEquals(2, block.hosts(), block.toString());
    }
  }
}
