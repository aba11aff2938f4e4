package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.net.Node;

/**
 * One feature's say in where the NameNode puts replicas. HDFS has one placement policy per
 * NameNode ({@code dfs.block.replicator.classname}); several Locus features need a say, so the
 * policy is {@link RoutingBlockPlacementPolicy} and each feature contributes a rule to
 * {@code locus.placement.rules}. A rule decides only what its feature cares about and has no
 * opinion (the defaults below) on everything else, so the stock choice stands wherever no rule
 * speaks.
 *
 * <p>Lifecycle: the router creates each rule with its no-argument constructor (through
 * {@code ReflectionUtils}, so a {@code Configurable} rule gets the configuration) when the
 * block manager builds the policy, then calls {@link #initialize} once, before any block is
 * placed. A NameNode plug-in that feeds a rule (as KAT's does with declared datasets) finds the
 * instance with {@link RoutingBlockPlacementPolicy#rule}. The hooks run on the NameNode's
 * placement paths (RPC handlers choosing a new block's targets, the redundancy monitor, block
 * report processing), some under the namesystem lock and some outside it, concurrently: state
 * they read must be safe to share (immutable, volatile or synchronized).
 *
 * <p>A rule never copies stock placement code: it calls the router's helpers
 * ({@link RoutingBlockPlacementPolicy#chooseDefault},
 * {@link RoutingBlockPlacementPolicy#chooseAround}, {@link RoutingBlockPlacementPolicy#storageOn},
 * ...), which place as {@link BlockPlacementPolicyDefault} does.
 */
public abstract class PlacementRule {
  /**
   * Called once, after the router itself is initialised and before the first hook. The router's
   * rule list is published after every rule is initialised, so {@code router.rule(...)} and the
   * helpers that apply the rules see no rules yet here.
   *
   * @param conf the NameNode's configuration; a rule reads its own keys here and fails with a
   *     message naming the key when one is wrong
   * @param router the policy this rule belongs to, for its helpers
   */
  public void initialize(Configuration conf, RoutingBlockPlacementPolicy router) {
  }

  /**
   * Where the replicas of a new block go. Every new block of a file passes here (the
   * NameNode's favored-nodes {@code chooseTarget}); re-replication does not. The router asks
   * the rules in list order and the first non-null answer is the block's targets; when every
   * rule answers null, {@link BlockPlacementPolicyDefault} places the block.
   *
   * <p>The parameters are the NameNode's. {@code storagePolicy} is the file's own policy,
   * before any {@link #storagePolicyFor} rewrite: pass it on to the router's helpers as it is,
   * they apply the rewrites. A rule that answers null leaves the arguments as it found them
   * (the next rule and the default get the same ones).
   *
   * @return the chosen storages as a write pipeline (as the router's helpers return them), or
   *     null when this rule does not decide this block
   */
  public DatanodeStorageInfo[] chooseNewBlockTargets(String src, int numOfReplicas,
      Node writer, Set<Node> excludedNodes, long blocksize,
      List<DatanodeDescriptor> favoredNodes, BlockStoragePolicy storagePolicy,
      EnumSet<AddBlockFlag> flags) {
    return null;
  }

  /**
   * The storage policy placement uses in place of {@code policy}, for new blocks and
   * re-replication alike (every {@code chooseTarget} of the router). Applied by every rule, in
   * list order, each to the previous one's result.
   *
   * <p>Must be idempotent ({@code storagePolicyFor(storagePolicyFor(p))} is
   * {@code storagePolicyFor(p)}): the stock code calls back into the router, so one placement
   * can pass a policy through the rules twice.
   *
   * @param policy the policy so far (the file's own for the first rule); may be null
   * @return the policy to place with; {@code policy} itself when this rule has no opinion
   */
  public BlockStoragePolicy storagePolicyFor(BlockStoragePolicy policy) {
    return policy;
  }

  /**
   * The storage types of the replicas the NameNode should delete from a block that has more
   * than it needs. Applied by every rule, in list order, each to the previous one's result,
   * before the stock choice picks which replicas of those types go.
   *
   * @param availableReplicas the block's replicas that count (not already excess)
   * @param expectedNumOfReplicas how many replicas the block should keep
   * @param excessTypes the types so far (for the first rule: what the file's storage policy
   *     says is excess)
   * @return a mutable list, one entry per replica to delete (the stock code removes entries as
   *     it chooses); {@code excessTypes} itself when this rule has no opinion
   */
  public List<StorageType> excessTypes(Collection<DatanodeStorageInfo> availableReplicas,
      int expectedNumOfReplicas, List<StorageType> excessTypes) {
    return excessTypes;
  }

  /**
   * The node whose replica should be deleted first when a block has too many. The router asks
   * the rules in list order; the first non-null answer replaces the NameNode's own hint (the
   * source of a finished move, say). The stock choice then deletes that node's replica first
   * if its storage type is excess and removing it keeps the block on as many racks; otherwise
   * it chooses as usual.
   *
   * @param candidates the replicas that may be deleted
   * @param addedNode the node that just received a replica, or null
   * @param delNodeHint the NameNode's own hint, or null
   * @return the node to delete from first, or null for no opinion
   */
  public DatanodeDescriptor deletionHint(Collection<DatanodeStorageInfo> candidates,
      DatanodeDescriptor addedNode, DatanodeDescriptor delNodeHint) {
    return null;
  }
}
