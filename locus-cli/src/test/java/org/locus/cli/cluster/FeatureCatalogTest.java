package org.locus.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.locus.cli.UsageException;

/** Several {@code --feature}s together, on the installed key sets (conf/features). */
class FeatureCatalogTest {
  private final FeatureCatalog catalog = FeatureCatalog.installed();

  @Test
  void twoFeaturesThatEachNeedANameNodePlugInGetBoth() throws Exception {
    Configuration kat = catalog.keysOf("kat");
    Configuration energy = catalog.keysOf("energy");
    Configuration both = catalog.keysOf(List.of("kat", "energy"));
    assertEquals(kat.get("dfs.namenode.plugins") + "," + energy.get("dfs.namenode.plugins"),
        both.get("dfs.namenode.plugins"));
    assertEquals(kat.get("dfs.block.replicator.classname"),
        both.get("dfs.block.replicator.classname"), "KAT's placement policy is kept");
    assertEquals(energy.get("dfs.datanode.plugins"), both.get("dfs.datanode.plugins"));
    assertEquals(kat.size() + energy.size() - 1, both.size(), "every key of each, one merged");
  }

  @Test
  void twoFeaturesThatNeedDifferentPlacementPoliciesAreRefusedNamingBoth() {
    UsageException e = assertThrows(UsageException.class,
        () -> catalog.keysOf(List.of("kat", "boost")));
    assertTrue(e.getMessage().startsWith("features 'kat' and 'boost' cannot run together: both"
        + " set dfs.block.replicator.classname ("), e.getMessage());
  }

  @Test
  void aFeatureNamedTwiceIsTheFeatureOnce() throws Exception {
    assertEquals(catalog.keysOf("kat").size(), catalog.keysOf(List.of("kat", "kat")).size());
    assertEquals(catalog.keysOf("kat").get("dfs.namenode.plugins"),
        catalog.keysOf(List.of("kat", "kat")).get("dfs.namenode.plugins"));
  }
}
