package org.locus.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.nio.file.Files;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.cli.command.UsageException;

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
  void katAndBoostShareThePlacementRouterAndEachAddsItsRule() throws Exception {
    Configuration kat = catalog.keysOf("kat");
    Configuration boost = catalog.keysOf("boost");
    Configuration both = catalog.keysOf(List.of("kat", "boost"));
    assertEquals("org.apache.hadoop.hdfs.server.blockmanagement.RoutingBlockPlacementPolicy",
        both.get("dfs.block.replicator.classname"));
    assertEquals(kat.get("locus.placement.rules") + "," + boost.get("locus.placement.rules"),
        both.get("locus.placement.rules"));
  }

  @Test
  void twoFeaturesThatSetAKeyToDifferentValuesAreRefusedNamingBoth(@TempDir File dir)
      throws Exception {
    Files.writeString(new File(dir, "one.xml").toPath(), policy("org.example.OnePolicy"));
    Files.writeString(new File(dir, "two.xml").toPath(), policy("org.example.TwoPolicy"));
    UsageException e = assertThrows(UsageException.class,
        () -> new FeatureCatalog(dir).keysOf(List.of("one", "two")));
    assertEquals("features 'one' and 'two' cannot run together: both set"
        + " dfs.block.replicator.classname (org.example.OnePolicy vs org.example.TwoPolicy)",
        e.getMessage());
  }

  private static String policy(String className) {
    return "<configuration><property><name>dfs.block.replicator.classname</name><value>"
        + className + "</value></property></configuration>";
  }

  @Test
  void aFeatureNamedTwiceIsTheFeatureOnce() throws Exception {
    assertEquals(catalog.keysOf("kat").size(), catalog.keysOf(List.of("kat", "kat")).size());
    assertEquals(catalog.keysOf("kat").get("dfs.namenode.plugins"),
        catalog.keysOf(List.of("kat", "kat")).get("dfs.namenode.plugins"));
  }
}
