package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.locus.boost.BoostConfigKeys;
import org.locus.boost.placement.SuperlocalLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BoostDFS placement: for a path tagged SUPERLOCAL, exactly one replica on REPLICATED storage and
 * the others where the default policy would put them, on DISK of other nodes. Every other path,
 * and every path when {@code locus.boost.enabled} is false, is placed by the stock default.
 *
 * <p>The default policy picks nodes in order (writer, remote rack, local rack, random) and fills
 * the storage types its storage policy asks for; this class only swaps the tag policy for the
 * SUPERLOCAL one ({@link SuperlocalLayout#placementPolicyFor}) before delegating, for new blocks
 * and for re-replication alike. It lives in Hadoop's package (a split package in our jar) to
 * override the package-private favored-nodes overload through which every new block passes.
 *
 * <p>A new SUPERLOCAL block written from outside the cluster (no DataNode on the writer's host)
 * gets its REPLICATED replica on the least loaded of a few random nodes
 * ({@link LeastLoadedReplicatedNode}, {@code locus.boost.placement.replicated-choices}) instead
 * of a random one; the default then places the other replicas around that chosen one, as it
 * places a block's later replicas around its first.
 *
 * <p>Excess replicas are chosen against the same layout: a block with a replica on the
 * REPLICATED storage type is a SUPERLOCAL block (only tagged paths are placed there, the type is
 * reserved for BoostDFS), and of its replicas a surplus REPLICATED one goes first. The stock
 * choice follows the tag policy, which wants every replica REPLICATED and so deletes DISK ones:
 * after a node returns from re-replication the block would keep two REPLICATED replicas and no
 * DISK one.
 */
public class SuperlocalBlockPlacementPolicy extends BlockPlacementPolicyDefault {
  private static final Logger LOG = LoggerFactory.getLogger(SuperlocalBlockPlacementPolicy.class);

  private boolean enabled;
  private SuperlocalLayout layout;
  private LeastLoadedReplicatedNode replicatedNode;

  @Override
  public void initialize(Configuration conf, FSClusterStats stats, NetworkTopology clusterMap,
      Host2NodesMap host2datanodeMap) {
    super.initialize(conf, stats, clusterMap, host2datanodeMap);
    enabled = conf.getBoolean(BoostConfigKeys.ENABLED, BoostConfigKeys.ENABLED_DEFAULT);
    layout = SuperlocalLayout.from(conf);
    replicatedNode = new LeastLoadedReplicatedNode(clusterMap, layout.replicatedType(),
        conf.getInt(BoostConfigKeys.REPLICATED_CHOICES,
            BoostConfigKeys.REPLICATED_CHOICES_DEFAULT));
    LOG.info("BoostDFS placement {}: paths with storage policy {} get one replica on {} (from"
        + " outside the cluster: the least loaded of {} random nodes)",
        enabled ? "on" : "off (stock placement)", layout.tagPolicyName(),
        layout.replicatedType(), replicatedNode.choices());
  }

  private BlockStoragePolicy effective(BlockStoragePolicy policy) {
    return enabled && layout.isTag(policy) ? layout.placementPolicyFor(policy) : policy;
  }

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    return super.chooseTarget(srcPath, numOfReplicas, writer, chosen, returnChosenNodes,
        excludedNodes, blocksize, effective(storagePolicy), flags);
  }

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags,
      EnumMap<StorageType, Integer> storageTypes) {
    return super.chooseTarget(srcPath, numOfReplicas, writer, chosen, returnChosenNodes,
        excludedNodes, blocksize, effective(storagePolicy), flags, storageTypes);
  }

  /** Every new block passes here (BlockManager#chooseTarget4NewBlock). */
  @Override
  DatanodeStorageInfo[] chooseTarget(String src, int numOfReplicas, Node writer,
      Set<Node> excludedNodes, long blocksize, List<DatanodeDescriptor> favoredNodes,
      BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    BlockStoragePolicy effective = effective(storagePolicy);
    if (effective != storagePolicy && replicatedNode.choices() > 1 && numOfReplicas > 0
        && !clusterMap.contains(writer) && (favoredNodes == null || favoredNodes.isEmpty())) {
      DatanodeStorageInfo replicated = replicatedNode.chooseStorage(src, excludedNodes,
          blocksize);
      if (replicated != null) {
        if (numOfReplicas == 1) {
          return new DatanodeStorageInfo[] {replicated};
        }
        List<DatanodeStorageInfo> chosen = new ArrayList<>(List.of(replicated));
        return super.chooseTarget(src, numOfReplicas - 1, writer, chosen, true, excludedNodes,
            blocksize, effective, flags);
      }
    }
    return super.chooseTarget(src, numOfReplicas, writer, excludedNodes, blocksize,
        favoredNodes, effective, flags);
  }

  @Override
  public List<DatanodeStorageInfo> chooseReplicasToDelete(
      Collection<DatanodeStorageInfo> availableReplicas,
      Collection<DatanodeStorageInfo> delCandidates, int expectedNumOfReplicas,
      List<StorageType> excessTypes, DatanodeDescriptor addedNode,
      DatanodeDescriptor delNodeHint) {
    List<StorageType> excess = excessTypes;
    if (enabled && availableReplicas.stream()
        .anyMatch(s -> s.getStorageType() == layout.replicatedType())) {
      excess = layout.excessTypes((short) expectedNumOfReplicas,
          DatanodeStorageInfo.toStorageTypes(availableReplicas));
    }
    return super.chooseReplicasToDelete(availableReplicas, delCandidates, expectedNumOfReplicas,
        excess, addedNode, delNodeHint);
  }
}
