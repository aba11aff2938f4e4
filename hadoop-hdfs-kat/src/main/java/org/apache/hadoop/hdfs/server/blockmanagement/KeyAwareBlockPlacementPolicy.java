package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.locus.kat.placement.ManagedDatasets;
import org.locus.kat.placement.OwnerPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KAT's NameNode placement policy ({@code dfs.block.replicator.classname}).
 *
 * <p>For a block of a file under {@code DATASET/owner=HOST/} where DATASET is a <em>declared</em>
 * KAT dataset ({@link ManagedDatasets}, fed by {@code org.locus.kat.namenode.KatNameNodePlugin}),
 * the block is placed as {@link BlockPlacementPolicyDefault} places a block written <em>on</em>
 * HOST: the first replica on HOST, the second on another rack, the third on the second's rack.
 * So the owner holds a replica of every block and the rack rule holds relative to the owner &mdash;
 * for any writer (an import, a job writing back under the dataset, {@code hdfs dfs -cp}), and
 * whatever favored nodes the writer passed, since the dataset's owner map is authoritative.
 * A full, stale or excluded owner falls back exactly as a full local node does.
 *
 * <p>Every other block is {@link BlockPlacementPolicyDefault}'s, unchanged: paths outside a
 * declared dataset (an {@code owner=} component alone means nothing), owners that are not
 * registered DataNodes, re-replication, deletion, and the Balancer's {@code isMovable}.
 *
 * <p>Lives in Hadoop's package because every new block goes through the package-private
 * favored-nodes {@code chooseTarget} overload, the only one that sees the path.
 */
public class KeyAwareBlockPlacementPolicy extends BlockPlacementPolicyDefault {
  private static final Logger LOG = LoggerFactory.getLogger(KeyAwareBlockPlacementPolicy.class);
  /** Set once by the NameNode plug-in; read on every block allocation. */
  private volatile ManagedDatasets declarations = ManagedDatasets.NONE;

  @Override
  public void initialize(Configuration conf, FSClusterStats stats, NetworkTopology clusterMap,
      Host2NodesMap host2datanodeMap) {
    super.initialize(conf, stats, clusterMap, host2datanodeMap);
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
  DatanodeStorageInfo[] chooseTarget(String src, int numOfReplicas, Node writer,
      Set<Node> excludedNodes, long blocksize, List<DatanodeDescriptor> favoredNodes,
      BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    DatanodeDescriptor owner = src == null ? null : declaredOwnerOf(src);
    if (owner == null) {
      return super.chooseTarget(src, numOfReplicas, writer, excludedNodes, blocksize,
          favoredNodes, storagePolicy, flags);
    }
    // The owner stands in for the writer, so the writer's wishes about its own node and rack
    // (NO_LOCAL_WRITE, NO_LOCAL_RACK) would be misread as wishes about the owner: drop them.
    EnumSet<AddBlockFlag> ownerFlags = flags == null ? EnumSet.noneOf(AddBlockFlag.class)
        : EnumSet.copyOf(flags);
    ownerFlags.remove(AddBlockFlag.NO_LOCAL_WRITE);
    ownerFlags.remove(AddBlockFlag.NO_LOCAL_RACK);
    return chooseTarget(src, numOfReplicas, owner, new ArrayList<>(numOfReplicas), false,
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
    return liveNodeOf(host.get());
  }

  /** @return the registered DataNode with this host name or IP address, or null */
  private DatanodeDescriptor liveNodeOf(String host) {
    DatanodeDescriptor node = host2datanodeMap.getDataNodeByHostName(host);
    return node != null ? node : host2datanodeMap.getDatanodeByHost(host);
  }
}
