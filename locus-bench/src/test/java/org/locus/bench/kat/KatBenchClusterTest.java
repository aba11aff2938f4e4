package org.locus.bench.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.Test;
import org.locus.bench.run.ClusterRecipe;

/** The KAT bench's nodes, the same on the embedded and the netns cluster. */
class KatBenchClusterTest {
  @Test
  void keepsKatsKeysWithTheBenchsBlockSizeAndTwoReplicas() {
    Configuration kat = new Configuration(false);
    kat.set("locus.placement.rules", "org.locus.kat.placement.KeyAwarePlacementRule");
    kat.set("dfs.replication", "3");
    ClusterRecipe recipe = KatBenchCluster.recipe(4, 8L << 20, kat).build();
    assertEquals(4, recipe.nodes());
    assertEquals(List.of(StorageType.DISK), recipe.volumes());
    assertEquals("org.locus.kat.placement.KeyAwarePlacementRule",
        recipe.keys().get("locus.placement.rules"));
    assertEquals(Long.toString(8L << 20), recipe.keys().get("dfs.blocksize"));
    assertEquals("2", recipe.keys().get("dfs.replication"));
  }
}
