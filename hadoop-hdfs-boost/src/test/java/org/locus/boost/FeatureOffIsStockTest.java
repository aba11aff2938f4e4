package org.locus.boost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.kit.LocusMiniCluster;

/**
 * With the placement class configured but {@code locus.boost.enabled=false}, a path tagged with
 * the SUPERLOCAL policy is placed as stock Hadoop places that policy (ALL_NVDIMM: every replica
 * on NVDIMM), not one REPLICATED replica. One cluster, about 10 s.
 */
class FeatureOffIsStockTest {
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = BoostTestClusters.fourNodes("feature-off")
        .setAll(BoostTestClusters.featureKeys())
        .set("locus.boost.enabled", "false")
        .start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void taggedPathIsPlacedAsTheStockPolicySays() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    SuperlocalPaths paths = new SuperlocalPaths(fs,
        SuperlocalLayout.from(cluster.getConfiguration()));
    Path dir = BoostTestClusters.taggedDirectory(fs, paths, "/off");
    BoostTestClusters.write(fs, new Path(dir, "data"), 3);
    for (BlockCopies block : paths.blocks(dir)) {
      assertEquals(2, block.replicas().size(), block.toString());
      for (BlockCopies.Replica replica : block.replicas()) {
        assertEquals(StorageType.NVDIMM, replica.type(), block.toString());
      }
    }
  }
}
