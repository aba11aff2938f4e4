package org.apache.hadoop.hdfs.server.blockmanagement;

/**
 * Hadoop 3.5.0's own {@code TestReplicationPolicy} (from the hadoop-hdfs tests jar) with
 * {@link RoutingBlockPlacementPolicy} as {@code dfs.block.replicator.classname} and no
 * {@code locus.placement.rules}: every inherited test must pass, as it does for
 * {@link BlockPlacementPolicyDefault}, new blocks, re-replication and replica deletion
 * included.
 *
 * <p>Upstream parameterises the class by the policy's class name ({@code @ParameterizedClass},
 * JUnit 5.13); this subclass fixes the parameter instead, so it runs on the project's JUnit.
 */
class RouterPassesHadoopsReplicationPolicyTest extends TestReplicationPolicy {
  RouterPassesHadoopsReplicationPolicyTest() {
    super(RoutingBlockPlacementPolicy.class.getName());
  }
}
