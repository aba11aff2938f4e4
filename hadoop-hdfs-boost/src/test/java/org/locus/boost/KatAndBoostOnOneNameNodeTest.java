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
import org.junit.jupiter.api.Test;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.kat.placement.KeyAwarePlacementRule;
import org.locus.kat.placement.OwnerPaths;
import org.locus.kit.ClusterNode;
import org.locus.kit.LocusMiniCluster;
import org.locus.placement.PlacementConfigKeys;

/**
 * KAT and BoostDFS on one NameNode, with both features' documented keys (conf/features/kat.xml
 * and boost.xml, their rule lists joined as {@code --feature kat --feature boost} joins them):
 * the placement router asks both rules, so a declared KAT dataset's files get their owner
 * replica and a SUPERLOCAL path gets its one REPLICATED replica. The test JVM writes from
 * outside the cluster, where stock placement would choose nodes at random. One 4-node cluster,
 * about 15 s.
 */
class KatAndBoostOnOneNameNodeTest {
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;
  private static SuperlocalPaths paths;

  @BeforeAll
  static void startCluster() throws Exception {
    Configuration kat = LocusMiniCluster.featureKeys("kat");
    Configuration boost = BoostTestClusters.featureKeys();
    cluster = BoostTestClusters.fourNodes("kat-and-boost")
        .setAll(kat)
        .setAll(boost)
        .set(PlacementConfigKeys.RULES, kat.get(PlacementConfigKeys.RULES) + ","
            + boost.get(PlacementConfigKeys.RULES))
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
  void theNameNodesPolicyIsTheRouterWithBothRulesInListOrder() {
    RoutingBlockPlacementPolicy router = (RoutingBlockPlacementPolicy) cluster.getDfsCluster()
        .getNamesystem().getBlockManager().getBlockPlacementPolicy();
    List<String> rules = router.rules().stream().map(r -> r.getClass().getName()).toList();
    assertEquals(List.of(KeyAwarePlacementRule.class.getName(),
        SuperlocalPlacementRule.class.getName()), rules);
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
