package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.util.ReflectionUtils;
import org.locus.placement.PlacementConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode's block placement policy when Locus features place data
 * ({@code dfs.block.replicator.classname}): {@link BlockPlacementPolicyDefault}, with every
 * decision a feature cares about routed to that feature's {@link PlacementRule}.
 *
 * <p>Why a router: HDFS takes one policy class per NameNode, and KAT (owner replicas), BoostDFS
 * (a REPLICATED replica for SUPERLOCAL paths) and NDCouplingHDFS (gears) each need a say. Each
 * used to claim the key with its own subclass, so no two could run together. Now each adds a
 * rule to {@code locus.placement.rules} ({@link PlacementConfigKeys#RULES}); this class asks
 * them in list order:
 * <ul>
 *   <li>a new block: the first rule whose {@link PlacementRule#chooseNewBlockTargets} answers
 *       decides; with no answer, the default places it;</li>
 *   <li>any placement (new block, re-replication, pipeline recovery): the storage policy is
 *       passed through every rule's {@link PlacementRule#storagePolicyFor};</li>
 *   <li>excess replicas: every rule may rewrite the excess storage types
 *       ({@link PlacementRule#excessTypes}) and the first that names a node
 *       ({@link PlacementRule#deletionHint}) sets the deletion hint; the default then
 *       chooses.</li>
 * </ul>
 * With no rules it is exactly {@link BlockPlacementPolicyDefault}. Rules reuse the default
 * through the helpers below instead of copying it.
 *
 * <p>Lives in Hadoop's package (a split package in our jar) because every new block passes
 * through the package-private favored-nodes {@code chooseTarget}, the only overload that sees
 * the file's path for every block, and to read the host map's package-private lookups.
 *
 * <p>A NameNode plug-in finds its feature's rule with
 * {@code ((RoutingBlockPlacementPolicy) nameNode.getNamesystem().getBlockManager()
 * .getBlockPlacementPolicy()).rule(MyRule.class)}.
 */
public class RoutingBlockPlacementPolicy extends BlockPlacementPolicyDefault {
  private static final Logger LOG = LoggerFactory.getLogger(RoutingBlockPlacementPolicy.class);

  private final List<Class<? extends PlacementRule>> rulesWhenUnset;
  /** Set once by {@link #initialize}, read by every placement; never modified. */
  private volatile List<PlacementRule> rules = List.of();

  /** The router as {@code dfs.block.replicator.classname} names it: rules from the key only. */
  public RoutingBlockPlacementPolicy() {
    this(List.of());
  }

  /**
   * For a feature's own policy class that existing configurations name: the router with
   * {@code rulesWhenUnset} when {@code locus.placement.rules} is not set.
   */
  protected RoutingBlockPlacementPolicy(List<Class<? extends PlacementRule>> rulesWhenUnset) {
    this.rulesWhenUnset = List.copyOf(rulesWhenUnset);
  }

  @Override
  public void initialize(Configuration conf, FSClusterStats stats, NetworkTopology clusterMap,
      Host2NodesMap host2datanodeMap) {
    super.initialize(conf, stats, clusterMap, host2datanodeMap);
    List<PlacementRule> created = new ArrayList<>();
    for (Class<? extends PlacementRule> type : ruleClasses(conf)) {
      PlacementRule rule = ReflectionUtils.newInstance(type, conf);
      rule.initialize(conf, this);
      created.add(rule);
    }
    // Published only now, through the volatile field: every thread that places a block sees
    // the rules with what their initialize() set.
    rules = List.copyOf(created);
    LOG.info("Block placement rules (asked in this order, then the default): {}",
        rules.isEmpty() ? "none" : rules.stream().map(r -> r.getClass().getName()).toList());
  }

  /**
   * @return the rule classes {@code locus.placement.rules} names, or the subclass's own when
   *     the key is unset
   * @throws IllegalArgumentException naming the key and the class, for a class that cannot be
   *     loaded or is not a {@link PlacementRule}; the NameNode does not start
   */
  private List<Class<? extends PlacementRule>> ruleClasses(Configuration conf) {
    String[] names = conf.getTrimmedStrings(PlacementConfigKeys.RULES);
    if (names.length == 0) {
      return rulesWhenUnset;
    }
    List<Class<? extends PlacementRule>> classes = new ArrayList<>();
    for (String name : names) {
      Class<?> type;
      try {
        type = conf.getClassByName(name);
      } catch (ClassNotFoundException e) {
        throw new IllegalArgumentException(PlacementConfigKeys.RULES + " names " + name
            + ", which is not on the NameNode's classpath; add its feature's jar or remove it"
            + " from the list", e);
      }
      if (!PlacementRule.class.isAssignableFrom(type)) {
        throw new IllegalArgumentException(PlacementConfigKeys.RULES + " names " + name
            + ", which is not a " + PlacementRule.class.getName()
            + "; list only placement rules there");
      }
      classes.add(type.asSubclass(PlacementRule.class));
    }
    return classes;
  }

  /**
   * @return this NameNode's instance of rule {@code type} (or of a subclass), if it is listed
   */
  public <T extends PlacementRule> Optional<T> rule(Class<T> type) {
    return rules.stream().filter(type::isInstance).map(type::cast).findFirst();
  }

  /** @return the rules in the order they are asked */
  public List<PlacementRule> rules() {
    return rules;
  }

  /** @return {@code policy} passed through every rule's {@link PlacementRule#storagePolicyFor} */
  public BlockStoragePolicy storagePolicyFor(BlockStoragePolicy policy) {
    BlockStoragePolicy effective = policy;
    for (PlacementRule rule : rules) {
      effective = rule.storagePolicyFor(effective);
    }
    return effective;
  }

  /** Every new block passes here (BlockManager#chooseTarget4NewBlock). */
  @Override
  DatanodeStorageInfo[] chooseTarget(String src, int numOfReplicas, Node writer,
      Set<Node> excludedNodes, long blocksize, List<DatanodeDescriptor> favoredNodes,
      BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    for (PlacementRule rule : rules) {
      DatanodeStorageInfo[] targets = rule.chooseNewBlockTargets(src, numOfReplicas, writer,
          excludedNodes, blocksize, favoredNodes, storagePolicy, flags);
      if (targets != null) {
        LOG.debug("{}: {} placed by {}", src, Arrays.asList(targets),
            rule.getClass().getName());
        return targets;
      }
    }
    return chooseDefault(src, numOfReplicas, writer, excludedNodes, blocksize, favoredNodes,
        storagePolicy, flags);
  }

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    return super.chooseTarget(srcPath, numOfReplicas, writer, chosen, returnChosenNodes,
        excludedNodes, blocksize, storagePolicyFor(storagePolicy), flags);
  }

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags,
      EnumMap<StorageType, Integer> storageTypes) {
    return super.chooseTarget(srcPath, numOfReplicas, writer, chosen, returnChosenNodes,
        excludedNodes, blocksize, storagePolicyFor(storagePolicy), flags, storageTypes);
  }

  @Override
  public List<DatanodeStorageInfo> chooseReplicasToDelete(
      Collection<DatanodeStorageInfo> availableReplicas,
      Collection<DatanodeStorageInfo> delCandidates, int expectedNumOfReplicas,
      List<StorageType> excessTypes, DatanodeDescriptor addedNode,
      DatanodeDescriptor delNodeHint) {
    List<StorageType> excess = excessTypes;
    DatanodeDescriptor hint = null;
    for (PlacementRule rule : rules) {
      excess = rule.excessTypes(availableReplicas, expectedNumOfReplicas, excess);
      if (hint == null) {
        hint = rule.deletionHint(delCandidates, addedNode, delNodeHint);
      }
    }
    return super.chooseReplicasToDelete(availableReplicas, delCandidates, expectedNumOfReplicas,
        excess, addedNode, hint != null ? hint : delNodeHint);
  }

  /**
   * The stock choice for a new block, as if no rule existed: {@link BlockPlacementPolicyDefault}'s
   * favored-nodes {@code chooseTarget} with {@code storagePolicy} passed through the rules'
   * {@link PlacementRule#storagePolicyFor}. For a rule that changes the arguments (favored
   * nodes, flags) and lets the default do the rest.
   */
  public DatanodeStorageInfo[] chooseDefault(String src, int numOfReplicas, Node writer,
      Set<Node> excludedNodes, long blocksize, List<DatanodeDescriptor> favoredNodes,
      BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    return super.chooseTarget(src, numOfReplicas, writer, excludedNodes, blocksize,
        favoredNodes, storagePolicyFor(storagePolicy), flags);
  }

  /**
   * The stock choice of {@code numOfReplicas} more replicas around storages already chosen
   * ({@link BlockPlacementPolicyDefault}'s public {@code chooseTarget}): the writer's node first
   * if it is a DataNode and has room, then the rack rule relative to the first replica; chosen
   * storages count towards the storage policy's types and their nodes are excluded.
   * {@code storagePolicy} is passed through the rules' {@link PlacementRule#storagePolicyFor}.
   *
   * <p>Two uses: a rule that names a stand-in writer (KAT's owner: {@code chosen} empty,
   * {@code writer} the owner), and a rule that picked one storage itself
   * ({@link #storageOn}) and wants the rest placed around it ({@code chosen} that storage,
   * {@code returnChosenNodes} true, {@code numOfReplicas} one less).
   *
   * @return the storages as a write pipeline, {@code chosen} included when
   *     {@code returnChosenNodes}
   */
  public DatanodeStorageInfo[] chooseAround(String src, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    return super.chooseTarget(src, numOfReplicas, writer, chosen, returnChosenNodes,
        excludedNodes, blocksize, storagePolicyFor(storagePolicy), flags);
  }

  /**
   * One storage of {@code type} on {@code node} that can take a block of {@code blocksize}
   * (state NORMAL, room for it beyond the blocks already scheduled there, as the default
   * checks a candidate's room), for a rule that decided the node itself. It does not judge the
   * node's load or staleness; the rule did. The NameNode counts the block as scheduled on the
   * node once the targets are returned.
   *
   * @return the storage, or null if the node is not a live, in-service DataNode or has no
   *     such storage with room
   */
  public DatanodeStorageInfo storageOn(DatanodeDescriptor node, long blocksize,
      StorageType type) {
    if (node == null || !node.isAlive() || !node.isInService()) {
      return null;
    }
    return node.chooseStorage4Block(type, blocksize, getMinBlocksForWrite());
  }

  /** @return the registered DataNode with this host name, else with this IP address, or null */
  public DatanodeDescriptor datanodeByHost(String hostOrIp) {
    if (hostOrIp == null) {
      return null;
    }
    DatanodeDescriptor node = host2datanodeMap.getDataNodeByHostName(hostOrIp);
    return node != null ? node : host2datanodeMap.getDatanodeByHost(hostOrIp);
  }

  /**
   * @return the DataNode in the topology with this UUID, or null. A scan of the topology (the
   *     policy is not given the DataNode manager's UUID map): for a lookup now and then, not
   *     for every block; a NameNode plug-in has {@code DatanodeManager#getDatanode} for more
   */
  public DatanodeDescriptor datanodeByUuid(String uuid) {
    for (Node node : clusterMap.getLeaves(NodeBase.ROOT)) {
      if (node instanceof DatanodeDescriptor datanode
          && datanode.getDatanodeUuid().equals(uuid)) {
        return datanode;
      }
    }
    return null;
  }

  /** @return the NameNode's network topology (every registered DataNode, by rack) */
  public NetworkTopology topology() {
    return clusterMap;
  }
}
