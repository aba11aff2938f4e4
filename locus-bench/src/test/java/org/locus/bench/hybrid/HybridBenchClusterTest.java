package org.locus.bench.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.Test;
import org.locus.bench.run.ClusterRecipe;
import org.locus.hybrid.HybridConfigKeys;

/** The three layouts' clusters as recipes: volumes, device rates and ALL_SSD paths. */
class HybridBenchClusterTest {
  private static final long SSD = 200L << 20;
  private static final long HDD = 80L << 20;
  private static final HybridBenchRequest REQUEST = new HybridBenchRequest("puma-small",
      List.of("grep"), 1, 3, SSD, HDD, 2048L << 20, 4L << 30, 32L << 20, new File("out"),
      new File("home"));

  @Test
  void hybridHasAnSsdAndADiskVolumeTheDiskAndIntermediateDataAtTheHddRate() {
    ClusterRecipe hybrid = HybridBenchCluster.recipe(StorageLayout.HYBRID, REQUEST);
    assertEquals(List.of(StorageType.SSD, StorageType.DISK), hybrid.volumes());
    assertEquals(SSD, hybrid.ssdBytesPerSecond());
    assertEquals(HDD, hybrid.diskBytesPerSecond());
    assertEquals("/hybrid", hybrid.keys().get(HybridConfigKeys.SSD_PATHS));
    assertEquals("ALL_SSD", hybrid.keys().get(HybridConfigKeys.SSD_POLICY));
  }

  @Test
  void ssdOnlyHasEveryDeviceAtTheSsdRateAndTheWholeNamespaceOnSsd() {
    ClusterRecipe ssd = HybridBenchCluster.recipe(StorageLayout.SSD_ONLY, REQUEST);
    assertEquals(List.of(StorageType.SSD), ssd.volumes());
    assertEquals(SSD, ssd.ssdBytesPerSecond());
    assertEquals(SSD, ssd.diskBytesPerSecond());
    assertEquals("/", ssd.keys().get(HybridConfigKeys.SSD_PATHS));
  }

  @Test
  void hddOnlyHasOneDiskVolumeAtTheHddRateAndNoHybridKeys() {
    ClusterRecipe hdd = HybridBenchCluster.recipe(StorageLayout.HDD_ONLY, REQUEST);
    assertEquals(List.of(StorageType.DISK), hdd.volumes());
    assertEquals(HDD, hdd.diskBytesPerSecond());
    assertFalse(hdd.keys().containsKey(HybridConfigKeys.SSD_PATHS));
    assertEquals(Map.of("dfs.blocksize", Long.toString(32L << 20)), hdd.keys());
  }
}
