package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.List;

/**
 * The placement policy name BoostDFS's first releases told operators to set
 * ({@code dfs.block.replicator.classname}), kept so their {@code hdfs-site.xml} keeps working:
 * the {@link RoutingBlockPlacementPolicy} with {@link SuperlocalPlacementRule} as its only rule
 * when {@code locus.placement.rules} is unset. New configurations name the router and list the
 * rule (conf/features/boost.xml), so BoostDFS can run beside other features' rules.
 */
public class SuperlocalBlockPlacementPolicy extends RoutingBlockPlacementPolicy {
  public SuperlocalBlockPlacementPolicy() {
    super(List.of(SuperlocalPlacementRule.class));
  }
}
