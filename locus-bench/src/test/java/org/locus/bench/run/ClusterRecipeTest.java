package org.locus.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.Test;
import org.locus.netns.MetadataLayout;
import org.locus.netns.NetnsClusterSpec;

class ClusterRecipeTest {
  private static final File LIB = new File("/opt/locus/lib");

  @Test
  void becomesTheNetnsSpecOfTheSameNodesVolumesRatesAndKeys() {
    NetnsClusterSpec spec = ClusterRecipe.builder(5)
        .volumes(List.of(StorageType.DISK, StorageType.SSD))
        .replicatedVolume(StorageType.NVDIMM)
        .diskRate(1_000_000).ssdRate(40_000_000).link(10_000_000)
        .nodeMemory(2L << 30).diskSize(3L << 30)
        .set("dfs.blocksize", "33554432")
        .build().netnsSpec(LIB);
    assertEquals(5, spec.nodes());
    assertTrue(spec.yarn());
    assertEquals(0, spec.nodeCpus());
    assertEquals(List.of("DISK", "SSD"), spec.volumes());
    assertEquals("NVDIMM", spec.replicatedVolume());
    assertEquals(1_000_000, spec.diskReadBytesPerSecond());
    assertEquals(1_000_000, spec.diskWriteBytesPerSecond());
    assertEquals(40_000_000, spec.ssdReadBytesPerSecond());
    assertEquals(40_000_000, spec.ssdWriteBytesPerSecond());
    assertEquals(10_000_000, spec.linkBitsPerSecond());
    assertEquals(2L << 30, spec.nodeMemoryBytes());
    assertEquals(3L << 30, spec.diskBytes());
    assertEquals(Map.of("dfs.blocksize", "33554432"), spec.keys());
    assertEquals(LIB, spec.distLibDir());
  }

  @Test
  void anHdfsOnlyRecipeOnCappedCpusBecomesTheSameSpec() {
    ClusterRecipe recipe = ClusterRecipe.builder(3).yarn(false).nodeCpus(0.5)
        .nodeMemory(1L << 30).build();
    NetnsClusterSpec spec = recipe.netnsSpec(LIB);
    assertFalse(spec.yarn());
    assertEquals(0.5, spec.nodeCpus());
  }

  /**
   * The gears and metadata benches' coupled clusters: the recipe's layout reaches the spec, and
   * a recipe that names none is stock HDFS's one NameNode on the master.
   */
  @Test
  void aCoupledRecipeBecomesACoupledSpecAndTheDefaultIsOneNameNode() {
    NetnsClusterSpec coupled = ClusterRecipe.builder(3).yarn(false).nodeMemory(1L << 30)
        .metadata(MetadataLayout.FATBTREE).build().netnsSpec(LIB);
    assertEquals(MetadataLayout.FATBTREE, coupled.metadata());
    NetnsClusterSpec stock = ClusterRecipe.builder(3).nodeMemory(1L << 30).build()
        .netnsSpec(LIB);
    assertEquals(MetadataLayout.MASTER, stock.metadata());
  }

  @Test
  void ssdDevicesAreThrottledLikeTheOthersUnlessGivenARateOfTheirOwn() {
    ClusterRecipe recipe = ClusterRecipe.builder(3).diskRate(2_000_000).nodeMemory(1L << 30)
        .build();
    assertEquals(2_000_000, recipe.ssdBytesPerSecond());
    NetnsClusterSpec spec = recipe.netnsSpec(LIB);
    assertEquals(2_000_000, spec.ssdReadBytesPerSecond());
    assertEquals(2_000_000, spec.ssdWriteBytesPerSecond());
  }

  @Test
  void withoutAReplicatedVolumeTheSpecHasNone() {
    NetnsClusterSpec spec = ClusterRecipe.builder(2).nodeMemory(1L << 30).build()
        .netnsSpec(LIB);
    assertEquals("", spec.replicatedVolume());
    assertEquals(List.of("DISK"), spec.volumes());
    assertEquals(ClusterRecipe.DEFAULT_DISK_BYTES, spec.diskBytes());
  }

  @Test
  void keysKeepTheirFirstPlaceAndTakeTheLastValue() {
    Configuration feature = new Configuration(false);
    feature.set("dfs.replication", "3");
    feature.set("locus.kat.enabled", "true");
    ClusterRecipe recipe = ClusterRecipe.builder(4)
        .set("dfs.replication", "2").set("dfs.blocksize", "1048576").setAll(feature).build();
    assertEquals(List.of("dfs.replication", "dfs.blocksize", "locus.kat.enabled"),
        List.copyOf(recipe.keys().keySet()));
    assertEquals("3", recipe.keys().get("dfs.replication"));
  }

  @Test
  void aFeatureSetsClusterKeepsTwoReplicasUnlessItsKeysSayOtherwise() {
    Configuration none = new Configuration(false);
    assertEquals(Map.of("dfs.replication", "2"),
        ClusterRecipe.featureSet(4, none).build().keys());
    Configuration three = new Configuration(false);
    three.set("dfs.replication", "3");
    assertEquals("3", ClusterRecipe.featureSet(4, three).build().keys().get("dfs.replication"));
  }

  @Test
  void aFeatureKeyIsTakenAsWrittenNotExpanded() {
    Configuration feature = new Configuration(false);
    feature.set("locus.dir", "${hadoop.tmp.dir}/locus");
    ClusterRecipe recipe = ClusterRecipe.builder(1).setAll(feature).build();
    assertEquals("${hadoop.tmp.dir}/locus", recipe.keys().get("locus.dir"));
  }

  @Test
  void aNetnsClusterNeedsTheMemoryOfItsNodes() {
    ClusterRecipe recipe = ClusterRecipe.builder(2).build();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> recipe.netnsSpec(LIB));
    assertTrue(e.getMessage().contains("memory of its nodes"), e.getMessage());
  }

  @Test
  void aRecipeWithoutNodesOrVolumesIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ClusterRecipe.builder(0).build());
    assertThrows(IllegalArgumentException.class,
        () -> ClusterRecipe.builder(2).volumes(List.of()).build());
  }
}
