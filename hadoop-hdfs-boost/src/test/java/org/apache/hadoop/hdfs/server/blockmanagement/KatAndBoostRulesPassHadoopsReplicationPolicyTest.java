package org.apache.hadoop.hdfs.server.blockmanagement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.locus.kat.placement.KeyAwarePlacementRule;

/**
 * Hadoop 3.5.0's own {@code TestReplicationPolicy} (from the hadoop-hdfs tests jar) with
 * {@link RoutingBlockPlacementPolicy} as {@code dfs.block.replicator.classname} and KAT's and
 * BoostDFS's rules in {@code locus.placement.rules}, BoostDFS switched on: every inherited test
 * must pass, as it does for {@link BlockPlacementPolicyDefault}. Its file
 * ({@code /dummyfile.txt}) is in no KAT dataset and has the default storage policy, not the
 * SUPERLOCAL tag, so neither rule may change a thing: new blocks, re-replication and replica
 * deletion included.
 *
 * <p>The fixture builds its NameNode's configuration itself ({@code new HdfsConfiguration()}),
 * so the rule keys come from a default resource, {@code kat-and-boost-rules.xml}, added before
 * the first test; surefire runs each test class in a JVM of its own.
 */
class KatAndBoostRulesPassHadoopsReplicationPolicyTest extends TestReplicationPolicy {
  static {
    Configuration.addDefaultResource("kat-and-boost-rules.xml");
  }

  KatAndBoostRulesPassHadoopsReplicationPolicyTest() {
    super(RoutingBlockPlacementPolicy.class.getName());
  }

  @Test
  void theRouterUnderTestAsksKatsRuleThenBoostsRule() {
    List<String> rules = ((RoutingBlockPlacementPolicy) replicator).rules().stream()
        .map(r -> r.getClass().getName()).toList();
    assertEquals(List.of(KeyAwarePlacementRule.class.getName(),
        SuperlocalPlacementRule.class.getName()), rules);
  }
}
