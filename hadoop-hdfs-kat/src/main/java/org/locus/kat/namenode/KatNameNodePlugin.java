package org.locus.kat.namenode;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.KeyAwareBlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ServicePlugin;
import org.locus.kat.placement.ManagedDatasets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NameNode plug-in ({@code dfs.namenode.plugins}) that lets KAT's placement policy see which
 * directories are declared datasets.
 *
 * <p>A placement policy is built by the block manager from topology and statistics only; it
 * never receives the namesystem. A NameNode plug-in does: {@link #start} gets the NameNode once
 * it serves, and hands {@link KeyAwareBlockPlacementPolicy} a {@link NamespaceDeclarations}
 * over its namesystem. Until then, and without this plug-in, the policy declares nothing and
 * places every file as stock HDFS does.
 *
 * <p>Lifecycle: the NameNode calls {@code start} after its RPC server is up (blocks allocated in
 * that first moment are placed as stock), {@code stop} at shutdown. Reconfiguring
 * {@code dfs.block.replicator.classname} at run time builds a new policy this plug-in has not
 * seen: restart the NameNode after doing so.
 */
public class KatNameNodePlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(KatNameNodePlugin.class);
  private KeyAwareBlockPlacementPolicy policy;

  @Override
  public void start(Object service) {
    NameNode nameNode = (NameNode) service;
    BlockPlacementPolicy configured =
        nameNode.getNamesystem().getBlockManager().getBlockPlacementPolicy();
    if (!(configured instanceof KeyAwareBlockPlacementPolicy)) {
      LOG.warn("KAT NameNode plug-in loaded but dfs.block.replicator.classname is {}, not {};"
          + " KAT datasets get no owner placement", configured.getClass().getName(),
          KeyAwareBlockPlacementPolicy.class.getName());
      return;
    }
    policy = (KeyAwareBlockPlacementPolicy) configured;
    policy.useDeclarations(new NamespaceDeclarations(nameNode.getNamesystem()));
    LOG.info("KAT placement active for declared datasets");
  }

  @Override
  public void stop() {
    if (policy != null) {
      policy.useDeclarations(ManagedDatasets.NONE);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
