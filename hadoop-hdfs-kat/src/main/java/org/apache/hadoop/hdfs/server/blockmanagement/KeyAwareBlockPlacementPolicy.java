package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.List;

import org.locus.kat.placement.KeyAwarePlacementRule;
import org.locus.kat.placement.ManagedDatasets;

/**
 * The placement policy name KAT's first releases told operators to set
 * ({@code dfs.block.replicator.classname}), kept so their {@code hdfs-site.xml} keeps working:
 * the {@link RoutingBlockPlacementPolicy} with {@link KeyAwarePlacementRule} as its only rule
 * when {@code locus.placement.rules} is unset. New configurations name the router and list the
 * rule (conf/features/kat.xml), so KAT can run beside other features' rules. In Hadoop's
 * package only because that is the name operators configured.
 */
public class KeyAwareBlockPlacementPolicy extends RoutingBlockPlacementPolicy {
  public KeyAwareBlockPlacementPolicy() {
    super(List.of(KeyAwarePlacementRule.class));
  }

  /**
   * Hands {@code managedDatasets} to this policy's KAT rule (none if the configured rule list
   * leaves it out).
   */
  public void useDeclarations(ManagedDatasets managedDatasets) {
    rule(KeyAwarePlacementRule.class).ifPresent(r -> r.useDeclarations(managedDatasets));
  }
}
