package org.apache.hadoop.hdfs.server.blockmanagement;

/**
 * Hadoop 3.5.0's own {@code TestReplicationPolicy} (on its {@code BaseReplicationPolicyTest}
 * fixture, from the hadoop-hdfs tests jar), run with {@link KeyAwareBlockPlacementPolicy} as
 * {@code dfs.block.replicator.classname}: every inherited test must pass, as it does for
 * {@link BlockPlacementPolicyDefault}.
 *
 * <p>Upstream parameterises the class by the policy's class name ({@code @ParameterizedClass},
 * JUnit 5.13); this subclass fixes the parameter to KAT's policy instead, so it runs on the
 * project's JUnit as a plain test class. Its files are named {@code /dummyfile.txt}: no declared
 * dataset, so the KAT policy must behave exactly as the default there, re-replication and
 * replica deletion included.
 */
class KeyAwarePolicyPassesHadoopsReplicationPolicyTest extends TestReplicationPolicy {
  KeyAwarePolicyPassesHadoopsReplicationPolicyTest() {
    super(KeyAwareBlockPlacementPolicy.class.getName());
  }
}
