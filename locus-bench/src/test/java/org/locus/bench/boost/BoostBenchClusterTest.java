package org.locus.bench.boost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.Test;
import org.locus.bench.run.ClusterRecipe;
import org.locus.bench.run.TaskMemory;
import org.locus.netns.DiskModel;

/** The two layouts' clusters as recipes: the same devices, different volumes and keys. */
class BoostBenchClusterTest {
  private static final BoostBenchRequest REQUEST = new BoostBenchRequest("puma-small",
      List.of("grep"), 1, 0, false, false, 5, 3, BoostBenchRequest.Comparison.CAPACITY,
      1_000_000, DiskModel.HDD, 2048L << 20, 4L << 30, 32L << 20, new TaskMemory(0, 0), Map.of(),
      Map.of("locus.boost.replicated.storage.type", "NVDIMM", "locus.boost.superlocal.policy", "ALL_NVDIMM"),
      new File("out"), new File("home"));

  @Test
  void hdfsHasThreeDiskVolumesAndNoBoostKeys() {
    ClusterRecipe hdfs = BoostBenchCluster.recipe(false, REQUEST);
    assertEquals(List.of(StorageType.DISK, StorageType.DISK, StorageType.DISK), hdfs.volumes());
    assertNull(hdfs.replicatedVolume());
    assertEquals(Map.of("dfs.blocksize", Long.toString(32L << 20)), hdfs.keys());
  }

  @Test
  void boostHasOneDiskVolumeAndTheReplicatedOneOfItsKeys() {
    ClusterRecipe boost = BoostBenchCluster.recipe(true, REQUEST);
    assertEquals(List.of(StorageType.DISK), boost.volumes());
    assertEquals(StorageType.NVDIMM, boost.replicatedVolume());
    assertEquals("ALL_NVDIMM", boost.keys().get("locus.boost.superlocal.policy"));
    assertEquals(Long.toString(32L << 20), boost.keys().get("dfs.blocksize"));
  }

  @Test
  void bothLayoutsGetTheSameNodesDevicesAndMemory() {
    for (boolean boost : new boolean[] {false, true}) {
      ClusterRecipe recipe = BoostBenchCluster.recipe(boost, REQUEST);
      assertEquals(5, recipe.nodes());
      assertEquals(1_000_000, recipe.diskBytesPerSecond());
      assertEquals(1_000_000, recipe.ssdBytesPerSecond());
      assertEquals(0, recipe.linkBitsPerSecond());
      assertEquals(2048L << 20, recipe.nodeMemoryBytes());
      assertEquals(4L << 30, recipe.diskBytes());
      assertEquals(DiskModel.HDD, recipe.diskModel(), "both on the same emulated drives");
      assertEquals(DiskModel.HDD, recipe.netnsSpec(new File("lib")).diskModel());
    }
  }
}
