package org.locus.kat.placement;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.PlacementRule;
import org.apache.hadoop.hdfs.server.blockmanagement.RoutingBlockPlacementPolicy;
import org.apache.hadoop.net.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KAT's placement rule ({@code locus.placement.rules}, with
 * {@link RoutingBlockPlacementPolicy} as {@code dfs.block.replicator.classname}).
 *
 * <p>For a new block of a file under {@code DATASET/owner=HOST/} where DATASET is a
 * <em>declared</em> KAT dataset ({@link ManagedDatasets}, fed by
 * {@code org.locus.kat.namenode.KatNameNodePlugin}), the block is placed as
 * {@link BlockPlacementPolicyDefault} places a block written <em>on</em> HOST: the first replica
 * on HOST, the second on another rack, the third on the second's rack. So the owner holds a
 * replica of every block and the rack rule holds relative to the owner &mdash; for any writer
 * (an import, a job writing back under the dataset, {@code hdfs dfs -cp}), and whatever favored
 * nodes the writer passed, since the dataset's owner map is authoritative. A full, stale or
 * excluded owner falls back exactly as a full local node does.
 *
 * <p>No opinion on anything else: paths outside a declared dataset (an {@code owner=}
 * component alone means nothing), owners that are not registered DataNodes, re-replication,
 * deletion and the Balancer's {@code isMovable} are the default's.
 */
public class KeyAwarePlacementRule extends PlacementRule {
  private static final Logger LOG = LoggerFactory.getLogger(KeyAwarePlacementRule.class);
  /** Set by the NameNode plug-in; read on every block allocation. */
  private volatile ManagedDatasets declarations = ManagedDatasets.NONE;
  private RoutingBlockPlacementPolicy router;

  @Override
  public void initialize(Configuration conf, RoutingBlockPlacementPolicy router) {
    this.router = router;
    if (!conf.getBoolean(
        DFSConfigKeys.DFS_NAMENODE_BLOCKPLACEMENTPOLICY_DEFAULT_PREFER_LOCAL_NODE_KEY,
        DFSConfigKeys.DFS_NAMENODE_BLOCKPLACEMENTPOLICY_DEFAULT_PREFER_LOCAL_NODE_DEFAULT)) {
      LOG.warn("{}=false: KAT owners are placed like local writers, so they will not get a"
          + " replica; set it to true", DFSConfigKeys
          .DFS_NAMENODE_BLOCKPLACEMENTPOLICY_DEFAULT_PREFER_LOCAL_NODE_KEY);
    }
  }

  /** Which directories are declared datasets; {@link ManagedDatasets#NONE} until set. */
  public void useDeclarations(ManagedDatasets managedDatasets) {
    this.declarations = managedDatasets;
  }

  @Override
  public DatanodeStorageInfo[] chooseNewBlockTargets(String src, int numOfReplicas,
      Node writer, Set<Node> excludedNodes, long blocksize,
      List<DatanodeDescriptor> favoredNodes, BlockStoragePolicy storagePolicy,
      EnumSet<AddBlockFlag> flags) {
    DatanodeDescriptor owner = src == null ? null : declaredOwnerOf(src);
    if (owner == null) {
      return null;
    }
    // The owner stands in for the writer, so the writer's wishes about its own node and rack
    // (NO_LOCAL_WRITE, NO_LOCAL_RACK) would be misread as wishes about the owner: drop them.
    EnumSet<AddBlockFlag> ownerFlags = flags == null ? EnumSet.noneOf(AddBlockFlag.class)
        : EnumSet.copyOf(flags);
    ownerFlags.remove(AddBlockFlag.NO_LOCAL_WRITE);
    ownerFlags.remove(AddBlockFlag.NO_LOCAL_RACK);
    return router.chooseAround(src, numOfReplicas, owner, new ArrayList<>(numOfReplicas), false,
        excludedNodes, blocksize, storagePolicy, ownerFlags);
  }

  /** @return the live owner DataNode of a file in a declared dataset, else null */
  private DatanodeDescriptor declaredOwnerOf(String src) {
    Optional<String> host = OwnerPaths.ownerOf(src);
    if (host.isEmpty()) {
      return null;
    }
    String root = OwnerPaths.datasetOf(src).orElseThrow();
    if (!declarations.isDeclared(root)) {
      return null;
    }
    return router.datanodeByHost(host.get());
  }
}
