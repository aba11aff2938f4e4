package org.apache.hadoop.hdfs.server.blockmanagement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Hadoop 3.5.0's own {@code TestReplicationPolicy} with the router and the coupled nodes' rules
 * ({@link PartitionPlacementRule}, then {@link GearPlacementRule}), on a NameNode whose
 * partition's own node is none of the fixture's DataNodes and with no gear plan: neither rule
 * may change a thing, so every inherited test passes as it does for the default policy.
 *
 * <p>The fixture builds its configuration itself ({@code new HdfsConfiguration()}), so the
 * keys come from a default resource, {@code partition-and-gear-rules.xml}; surefire runs each
 * test class in a JVM of its own.
 */
class PartitionAndGearRulesPassHadoopsReplicationPolicyTest extends TestReplicationPolicy {
  static {
    Configuration.addDefaultResource("partition-and-gear-rules.xml");
  }

  PartitionAndGearRulesPassHadoopsReplicationPolicyTest() {
    super(RoutingBlockPlacementPolicy.class.getName());
  }

  @Test
  void theRouterUnderTestAsksThePartitionRuleThenTheGearRule() {
    List<String> rules = ((RoutingBlockPlacementPolicy) replicator).rules().stream()
        .map(r -> r.getClass().getName()).toList();
    assertEquals(List.of(PartitionPlacementRule.class.getName(),
        GearPlacementRule.class.getName()), rules);
  }
}
