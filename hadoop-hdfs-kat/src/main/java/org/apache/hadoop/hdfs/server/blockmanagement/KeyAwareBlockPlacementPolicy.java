package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.net.Node;
import org.locus.kat.placement.OwnerPaths;

/**
 * KAT's NameNode placement policy ({@code dfs.block.replicator.classname}).
 *
 * <p>For a block of a file whose path names an owner ({@code .../owner=HOST/...}, see
 * {@link OwnerPaths}) and whose writer passed no favored nodes, the owner becomes the favored
 * node, so it holds a replica of every block — a job writing back under a KAT dataset, or a
 * plain {@code hdfs dfs -cp}, keeps the placement without knowing about KAT. Every other decision
 * is {@link BlockPlacementPolicyDefault}'s, unchanged: other paths, explicit favored nodes, the
 * remaining replicas, re-replication, deletion.
 *
 * <p>Lives in Hadoop's package because every new block goes through the package-private
 * favored-nodes {@code chooseTarget} overload, the only one that sees the path and the favored
 * nodes together.
 */
public class KeyAwareBlockPlacementPolicy extends BlockPlacementPolicyDefault {

  @Override
  DatanodeStorageInfo[] chooseTarget(String src, int numOfReplicas, Node writer,
      Set<Node> excludedNodes, long blocksize, List<DatanodeDescriptor> favoredNodes,
      BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    List<DatanodeDescriptor> favored = favoredNodes;
    if ((favored == null || favored.isEmpty()) && src != null) {
      Optional<DatanodeDescriptor> owner = OwnerPaths.ownerOf(src).map(this::liveNodeOf);
      if (owner.isPresent()) {
        favored = List.of(owner.get());
      }
    }
    return super.chooseTarget(src, numOfReplicas, writer, excludedNodes, blocksize, favored,
        storagePolicy, flags);
  }

  /** @return the registered DataNode with this host name or IP address, or null */
  private DatanodeDescriptor liveNodeOf(String host) {
    DatanodeDescriptor node = host2datanodeMap.getDataNodeByHostName(host);
    return node != null ? node : host2datanodeMap.getDatanodeByHost(host);
  }
}
