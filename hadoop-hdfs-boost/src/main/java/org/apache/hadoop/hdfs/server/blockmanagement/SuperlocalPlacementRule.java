package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.net.Node;
import org.locus.boost.BoostConfigKeys;
import org.locus.boost.placement.SuperlocalLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BoostDFS's placement rule ({@code locus.placement.rules}, with
 * {@link RoutingBlockPlacementPolicy} as {@code dfs.block.replicator.classname}): for a path
 * tagged SUPERLOCAL, exactly one replica on REPLICATED storage and the others where the default
 * would put them, on DISK of other nodes. Every other path, and every path when
 * {@code locus.boost.enabled} is false, gets no opinion from this rule.
 *
 * <p>The default picks nodes in order (writer, remote rack, local rack, random) and fills the
 * storage types its storage policy asks for; this rule only swaps the tag policy for the
 * SUPERLOCAL one ({@link SuperlocalLayout#placementPolicyFor}), for new blocks and for
 * re-replication alike ({@link #storagePolicyFor}).
 *
 * <p>A new SUPERLOCAL block written from outside the cluster (no DataNode on the writer's host)
 * gets its REPLICATED replica on the least loaded of a few random nodes
 * ({@link LeastLoadedReplicatedNode}, {@code locus.boost.placement.replicated-choices}) instead
 * of a random one; the default then places the other replicas around that chosen one, as it
 * places a block's later replicas around its first.
 *
 * <p>Excess replicas are chosen against the same layout: a block with a replica on the
 * REPLICATED storage type is a SUPERLOCAL block (only tagged paths are placed there, the type is
 * reserved for BoostDFS), and of its replicas a surplus REPLICATED one goes first
 * ({@link #excessTypes}). The stock choice follows the tag policy, which wants every replica
 * REPLICATED and so deletes DISK ones: after a node returns from re-replication the block would
 * keep two REPLICATED replicas and no DISK one.
 *
 * <p>In Hadoop's package to use {@link LeastLoadedReplicatedNode}, which counts a storage's
 * blocks through package-private members.
 */
public class SuperlocalPlacementRule extends PlacementRule {
  private static final Logger LOG = LoggerFactory.getLogger(SuperlocalPlacementRule.class);

  private RoutingBlockPlacementPolicy router;
  private boolean enabled;
  private SuperlocalLayout layout;
  private LeastLoadedReplicatedNode replicatedNode;

  @Override
  public void initialize(Configuration conf, RoutingBlockPlacementPolicy router) {
    this.router = router;
    enabled = conf.getBoolean(BoostConfigKeys.ENABLED, BoostConfigKeys.ENABLED_DEFAULT);
    layout = SuperlocalLayout.from(conf);
    replicatedNode = new LeastLoadedReplicatedNode(router.topology(), layout.replicatedType(),
        conf.getInt(BoostConfigKeys.REPLICATED_CHOICES,
            BoostConfigKeys.REPLICATED_CHOICES_DEFAULT));
    LOG.info("BoostDFS placement {}: paths with storage policy {} get one replica on {} (from"
        + " outside the cluster: the least loaded of {} random nodes)",
        enabled ? "on" : "off (stock placement)", layout.tagPolicyName(),
        layout.replicatedType(), replicatedNode.choices());
  }

  private boolean isSuperlocal(BlockStoragePolicy policy) {
    return enabled && layout.isTag(policy);
  }

  @Override
  public BlockStoragePolicy storagePolicyFor(BlockStoragePolicy policy) {
    return isSuperlocal(policy) ? layout.placementPolicyFor(policy) : policy;
  }

  @Override
  public DatanodeStorageInfo[] chooseNewBlockTargets(String src, int numOfReplicas,
      Node writer, Set<Node> excludedNodes, long blocksize,
      List<DatanodeDescriptor> favoredNodes, BlockStoragePolicy storagePolicy,
      EnumSet<AddBlockFlag> flags) {
    if (!isSuperlocal(storagePolicy) || replicatedNode.choices() <= 1 || numOfReplicas <= 0
        || router.topology().contains(writer)
        || (favoredNodes != null && !favoredNodes.isEmpty())) {
      return null;
    }
    DatanodeStorageInfo replicated = replicatedNode.chooseStorage(src, excludedNodes,
        blocksize);
    if (replicated == null) {
      return null;
    }
    if (numOfReplicas == 1) {
      return new DatanodeStorageInfo[] {replicated};
    }
    List<DatanodeStorageInfo> chosen = new ArrayList<>(List.of(replicated));
    return router.chooseAround(src, numOfReplicas - 1, writer, chosen, true, excludedNodes,
        blocksize, storagePolicy, flags);
  }

  @Override
  public List<StorageType> excessTypes(Collection<DatanodeStorageInfo> availableReplicas,
      int expectedNumOfReplicas, List<StorageType> excessTypes) {
    if (enabled && availableReplicas.stream()
        .anyMatch(s -> s.getStorageType() == layout.replicatedType())) {
      return layout.excessTypes((short) expectedNumOfReplicas,
          DatanodeStorageInfo.toStorageTypes(availableReplicas));
    }
    return excessTypes;
  }
}
