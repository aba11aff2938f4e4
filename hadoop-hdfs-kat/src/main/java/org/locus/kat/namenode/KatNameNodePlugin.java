package org.locus.kat.namenode;

import java.util.Optional;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.RoutingBlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ServicePlugin;
import org.locus.kat.placement.KeyAwarePlacementRule;
import org.locus.kat.placement.ManagedDatasets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NameNode plug-in ({@code dfs.namenode.plugins}) that lets KAT's placement rule see which
 * directories are declared datasets.
 *
 * <p>A placement policy, and so its rules, is built by the block manager from topology and
 * statistics only; it never receives the namesystem. A NameNode plug-in does: {@link #start}
 * gets the NameNode once it serves, finds the {@link KeyAwarePlacementRule} of the NameNode's
 * {@link RoutingBlockPlacementPolicy} and hands it a {@link NamespaceDeclarations} over the
 * namesystem. Until then, and without this plug-in, the rule declares nothing and every file is
 * placed as stock HDFS places it.
 *
 * <p>Lifecycle: the NameNode calls {@code start} after its RPC server is up (blocks allocated in
 * that first moment are placed as stock), {@code stop} at shutdown. Reconfiguring
 * {@code dfs.block.replicator.classname} at run time builds a new policy this plug-in has not
 * seen: restart the NameNode after doing so.
 */
public class KatNameNodePlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(KatNameNodePlugin.class);
  private KeyAwarePlacementRule rule;

  @Override
  public void start(Object service) {
    NameNode nameNode = (NameNode) service;
    BlockPlacementPolicy configured =
        nameNode.getNamesystem().getBlockManager().getBlockPlacementPolicy();
    Optional<KeyAwarePlacementRule> found = configured instanceof RoutingBlockPlacementPolicy
        ? ((RoutingBlockPlacementPolicy) configured).rule(KeyAwarePlacementRule.class)
        : Optional.empty();
    if (found.isEmpty()) {
      LOG.warn("KAT NameNode plug-in loaded but the block placement policy ({}) has no {}: set"
          + " dfs.block.replicator.classname to {} and add the rule to locus.placement.rules;"
          + " KAT datasets get no owner placement", configured.getClass().getName(),
          KeyAwarePlacementRule.class.getName(), RoutingBlockPlacementPolicy.class.getName());
      return;
    }
    rule = found.get();
    rule.useDeclarations(new NamespaceDeclarations(nameNode.getNamesystem()));
    LOG.info("KAT placement active for declared datasets");
  }

  @Override
  public void stop() {
    if (rule != null) {
      rule.useDeclarations(ManagedDatasets.NONE);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
