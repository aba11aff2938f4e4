package org.locus.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.locus.bench.suite.BenchJob;
import org.locus.bench.suite.Suites;

/** Which runs of a suite KAT makes key-aware, and on which clusters. */
class KeyAwareRunsTest {
  @Test
  void onlyTheKatPlacementPolicyMakesAClusterPlaceByKey() {
    Configuration kat = new Configuration(false);
    kat.set("dfs.block.replicator.classname",
        " org.apache.hadoop.hdfs.server.blockmanagement.KeyAwareBlockPlacementPolicy ");
    assertTrue(KeyAwareRuns.placesByKey(kat));
    Configuration boost = new Configuration(false);
    boost.set("dfs.block.replicator.classname",
        "org.apache.hadoop.hdfs.server.blockmanagement.SuperlocalBlockPlacementPolicy");
    assertFalse(KeyAwareRuns.placesByKey(boost));
    assertFalse(KeyAwareRuns.placesByKey(new Configuration(false)));
  }

  @Test
  void thePlacementRouterPlacesByKeyWhenKatsRuleIsListed() {
    Configuration router = new Configuration(false);
    router.set("dfs.block.replicator.classname",
        "org.apache.hadoop.hdfs.server.blockmanagement.RoutingBlockPlacementPolicy");
    router.set("locus.placement.rules",
        "org.apache.hadoop.hdfs.server.blockmanagement.SuperlocalPlacementRule");
    assertFalse(KeyAwareRuns.placesByKey(router));
    router.set("locus.placement.rules",
        "org.apache.hadoop.hdfs.server.blockmanagement.SuperlocalPlacementRule,"
            + " org.locus.kat.placement.KeyAwarePlacementRule");
    assertTrue(KeyAwareRuns.placesByKey(router));
  }

  @Test
  void wordCountAndGrepOfThePumaSuiteHaveHintsAndNoOtherJobHasOne() throws Exception {
    Map<String, String> hints = new java.util.TreeMap<>();
    for (BenchJob job : Suites.get("puma-small", null, 4).jobs()) {
      KeyAwareRuns.hintOf(job).ifPresent(hint -> hints.put(job.id(), hint));
    }
    assertEquals(Map.of("wordcount", "wordcount", "grep", "grep:w1[0-9a-f]"), hints);
  }

  @Test
  void aGrepWithoutARegexHasNoHint() {
    assertEquals(Optional.empty(), KeyAwareRuns.hintOf(new BenchJob("grep", "grep",
        "kind:text", 1, Map.of())));
  }
}
