package org.apache.hadoop.hdfs.server.blockmanagement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.junit.jupiter.api.Test;
import org.locus.placement.PlacementConfigKeys;

/**
 * How the router combines its rules, on a NameNode-less topology: which rule places a new
 * block, how storage policies and excess types chain, whose deletion hint counts, what the
 * helpers rules call return, and how a wrong {@code locus.placement.rules} is refused (there,
 * also by a NameNode, which does not start). (That the router with no rule places as the
 * default does is Hadoop's own TestReplicationPolicy's job,
 * {@link RouterPassesHadoopsReplicationPolicyTest}; with KAT's and BoostDFS's rules, see
 * hadoop-hdfs-boost's {@code KatAndBoostRulesPassHadoopsReplicationPolicyTest}.)
 */
class RoutingBlockPlacementPolicyTest {
  private static final BlockStoragePolicy HOT = new BlockStoragePolicy((byte) 7, "HOT",
      new StorageType[] {StorageType.DISK}, new StorageType[0],
      new StorageType[] {StorageType.ARCHIVE});
  private static final BlockStoragePolicy COLD = new BlockStoragePolicy((byte) 2, "COLD",
      new StorageType[] {StorageType.ARCHIVE}, new StorageType[0], new StorageType[0]);

  /** Never decides; remembers what it was asked. */
  public static class Declining extends PlacementRule {
    final List<String> asked = new ArrayList<>();
    RoutingBlockPlacementPolicy router;

    @Override
    public void initialize(Configuration conf, RoutingBlockPlacementPolicy router) {
      this.router = router;
    }

    @Override
    public DatanodeStorageInfo[] chooseNewBlockTargets(String src, int numOfReplicas,
        Node writer, Set<Node> excludedNodes, long blocksize,
        List<DatanodeDescriptor> favoredNodes, BlockStoragePolicy storagePolicy,
        EnumSet<AddBlockFlag> flags) {
      asked.add(src);
      return null;
    }
  }

  /** Decides every new block with its own (empty) answer. */
  public static class Answering extends PlacementRule {
    final DatanodeStorageInfo[] answer = new DatanodeStorageInfo[0];
    final List<String> asked = new ArrayList<>();

    @Override
    public DatanodeStorageInfo[] chooseNewBlockTargets(String src, int numOfReplicas,
        Node writer, Set<Node> excludedNodes, long blocksize,
        List<DatanodeDescriptor> favoredNodes, BlockStoragePolicy storagePolicy,
        EnumSet<AddBlockFlag> flags) {
      asked.add(src);
      return answer;
    }
  }

  /** A second answering rule, to see that it is not asked after the first answered. */
  public static class AnsweringToo extends Answering {
  }

  /** Places everything as COLD and deletes ARCHIVE replicas first. */
  public static class MakesItCold extends PlacementRule {
    @Override
    public BlockStoragePolicy storagePolicyFor(BlockStoragePolicy policy) {
      return COLD;
    }

    @Override
    public List<StorageType> excessTypes(Collection<DatanodeStorageInfo> availableReplicas,
        int expectedNumOfReplicas, List<StorageType> excessTypes) {
      return new ArrayList<>(List.of(StorageType.ARCHIVE));
    }
  }

  /** Remembers the policies and excess types the rules before it left. */
  public static class Recording extends PlacementRule {
    final List<String> policies = new ArrayList<>();
    final List<List<StorageType>> excess = new ArrayList<>();

    @Override
    public BlockStoragePolicy storagePolicyFor(BlockStoragePolicy policy) {
      policies.add(policy.getName());
      return policy;
    }

    @Override
    public List<StorageType> excessTypes(Collection<DatanodeStorageInfo> availableReplicas,
        int expectedNumOfReplicas, List<StorageType> excessTypes) {
      excess.add(List.copyOf(excessTypes));
      return excessTypes;
    }
  }

  /** Asks that host1's replica be deleted first. */
  public static class DeleteHost1First extends PlacementRule {
    @Override
    public DatanodeDescriptor deletionHint(Collection<DatanodeStorageInfo> candidates,
        DatanodeDescriptor addedNode, DatanodeDescriptor delNodeHint) {
      return nodeOn(candidates, "host1");
    }
  }

  /** Asks that host2's replica be deleted first. */
  public static class DeleteHost2First extends PlacementRule {
    @Override
    public DatanodeDescriptor deletionHint(Collection<DatanodeStorageInfo> candidates,
        DatanodeDescriptor addedNode, DatanodeDescriptor delNodeHint) {
      return nodeOn(candidates, "host2");
    }
  }

  private static DatanodeDescriptor nodeOn(Collection<DatanodeStorageInfo> storages,
      String host) {
    return storages.stream().map(DatanodeStorageInfo::getDatanodeDescriptor)
        .filter(n -> n.getHostName().equals(host)).findFirst().orElseThrow();
  }

  /** @return a router over an empty topology with {@code rules} listed */
  private static RoutingBlockPlacementPolicy router(String rules) {
    return router(rules, new DatanodeDescriptor[0]);
  }

  /** @return a router over {@code nodes} (topology and host map) with {@code rules} listed */
  private static RoutingBlockPlacementPolicy router(String rules, DatanodeDescriptor... nodes) {
    Configuration conf = new Configuration(false);
    conf.set(PlacementConfigKeys.RULES, rules);
    NetworkTopology topology = NetworkTopology.getInstance(conf);
    Host2NodesMap hosts = new Host2NodesMap();
    for (DatanodeDescriptor node : nodes) {
      topology.add(node);
      hosts.add(node);
    }
    RoutingBlockPlacementPolicy router = new RoutingBlockPlacementPolicy();
    router.initialize(conf, null, topology, hosts);
    return router;
  }

  private static String names(Class<?>... rules) {
    List<String> names = new ArrayList<>();
    for (Class<?> rule : rules) {
      names.add(rule.getName());
    }
    return String.join(" , ", names);
  }

  private static DatanodeStorageInfo[] newBlock(RoutingBlockPlacementPolicy router,
      String src) {
    return router.chooseTarget(src, 3, null, new HashSet<>(), 1024, List.of(), HOT,
        EnumSet.noneOf(AddBlockFlag.class));
  }

  @Test
  void withNoRulesListedTheDefaultPlacesEveryBlock() {
    RoutingBlockPlacementPolicy router = router("");
    assertEquals(List.of(), router.rules());
    assertSame(DatanodeStorageInfo.EMPTY_ARRAY, newBlock(router, "/f"),
        "the default's answer on an empty cluster");
    assertEquals(HOT, router.storagePolicyFor(HOT));
  }

  @Test
  void theFirstRuleThatAnswersPlacesTheNewBlockAndLaterRulesAreNotAsked() {
    RoutingBlockPlacementPolicy router = router(
        names(Declining.class, Answering.class, AnsweringToo.class));
    DatanodeStorageInfo[] targets = newBlock(router, "/a/f");
    assertSame(router.rule(Answering.class).orElseThrow().answer, targets);
    assertEquals(List.of("/a/f"), router.rule(Declining.class).orElseThrow().asked);
    assertEquals(List.of(), router.rule(AnsweringToo.class).orElseThrow().asked);
  }

  @Test
  void whenNoRuleAnswersTheDefaultPlacesTheBlock() {
    RoutingBlockPlacementPolicy router = router(names(Declining.class));
    assertSame(DatanodeStorageInfo.EMPTY_ARRAY, newBlock(router, "/b/f"));
    assertEquals(List.of("/b/f"), router.rule(Declining.class).orElseThrow().asked);
  }

  @Test
  void rulesAreInitialisedWithTheRouterAndFoundByTheirClass() {
    RoutingBlockPlacementPolicy router = router(names(Declining.class));
    assertSame(router, router.rule(Declining.class).orElseThrow().router);
    assertTrue(router.rule(PlacementRule.class).isPresent(), "found by a superclass too");
    assertFalse(router.rule(Answering.class).isPresent());
  }

  @Test
  void storagePoliciesAndExcessTypesPassThroughTheRulesInListOrder() {
    RoutingBlockPlacementPolicy router = router(
        names(Recording.class, MakesItCold.class, Recording.class));
    List<PlacementRule> rules = router.rules();
    router.chooseTarget("/c/f", 2, null, new ArrayList<>(), false, new HashSet<>(), 1024, HOT,
        null);
    assertEquals(List.of("HOT"), ((Recording) rules.get(0)).policies);
    assertEquals(List.of("COLD"), ((Recording) rules.get(2)).policies);
    assertEquals(COLD, router.storagePolicyFor(HOT));

    DatanodeStorageInfo[] replicas = DFSTestUtil.createDatanodeStorageInfos(2);
    router.chooseReplicasToDelete(List.of(replicas), List.of(replicas), 2,
        new ArrayList<>(List.of(StorageType.DISK)), null, null);
    assertEquals(List.of(List.of(StorageType.DISK)), ((Recording) rules.get(0)).excess);
    assertEquals(List.of(List.of(StorageType.ARCHIVE)), ((Recording) rules.get(2)).excess);
  }

  /** host1 and host2 share a rack, so either may go without losing a rack. */
  @Test
  void theFirstRuleThatNamesANodeChoosesWhichReplicaIsDeleted() {
    for (List<Class<?>> order : List.of(
        List.<Class<?>>of(Declining.class, DeleteHost1First.class, DeleteHost2First.class),
        List.<Class<?>>of(DeleteHost2First.class, DeleteHost1First.class))) {
      RoutingBlockPlacementPolicy router = router(names(order.toArray(new Class<?>[0])));
      DatanodeStorageInfo[] replicas = DFSTestUtil.createDatanodeStorageInfos(3,
          new String[] {"/r1", "/r1", "/r2"}, new String[] {"host1", "host2", "host3"});
      List<DatanodeStorageInfo> deleted = router.chooseReplicasToDelete(List.of(replicas),
          List.of(replicas), 2, new ArrayList<>(List.of(StorageType.DISK)), null, null);
      String first = order.get(0) == DeleteHost2First.class ? "host2" : "host1";
      assertEquals(1, deleted.size());
      assertEquals(first, deleted.get(0).getDatanodeDescriptor().getHostName(),
          "rules " + order);
    }
  }

  @Test
  void datanodesAreFoundByHostNameByAddressAndByUuid() {
    DatanodeDescriptor[] nodes = DFSTestUtil.toDatanodeDescriptor(
        DFSTestUtil.createDatanodeStorageInfos(2, new String[] {"/r1", "/r2"},
            new String[] {"host1", "host2"}));
    RoutingBlockPlacementPolicy router = router("", nodes);
    DatanodeDescriptor second = nodes[1];
    assertSame(second, router.datanodeByHost("host2"));
    assertSame(second, router.datanodeByHost(second.getIpAddr()));
    assertSame(second, router.datanodeByUuid(second.getDatanodeUuid()));
    assertNull(router.datanodeByHost("host3"));
    assertNull(router.datanodeByUuid("no-such-uuid"));
    assertEquals(2, router.topology().getNumOfLeaves());
  }

  @Test
  void storageOnANodeIsANormalStorageOfTheTypeWithRoomForTheBlockOnALiveNode() {
    DatanodeDescriptor node = DFSTestUtil.createDatanodeStorageInfo("s1", "10.0.0.9", "/r1",
        "host9").getDatanodeDescriptor();
    DatanodeStorageInfo disk = node.getStorageInfos()[0];
    disk.setUtilizationForTesting(1 << 20, 0, 1 << 20, 0);
    node.setAlive(true);
    RoutingBlockPlacementPolicy router = router("", node);
    assertSame(disk, router.storageOn(node, 1024, StorageType.DISK));
    assertNull(router.storageOn(node, 1024, StorageType.ARCHIVE), "no ARCHIVE storage");
    assertNull(router.storageOn(node, 2 << 20, StorageType.DISK), "no room for the block");
    node.setAlive(false);
    assertNull(router.storageOn(node, 1024, StorageType.DISK), "not alive");
  }

  @Test
  void aRuleClassNotOnTheClasspathIsRefusedNamingTheKeyAndTheClass() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> router(names(Declining.class) + ",org.example.NoSuchRule"));
    assertTrue(e.getMessage().startsWith(
        "locus.placement.rules names org.example.NoSuchRule, which is not on the NameNode's"
            + " classpath"), e.getMessage());
  }

  @Test
  void aNameNodeWhoseRuleListNamesAnUnknownClassDoesNotStart() {
    Configuration conf = new HdfsConfiguration();
    conf.set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
        RoutingBlockPlacementPolicy.class.getName());
    conf.set(PlacementConfigKeys.RULES, "org.example.NoSuchRule");
    Exception e = assertThrows(Exception.class, () -> new MiniDFSCluster.Builder(conf,
        new File("target/test-clusters/unknown-rule")).numDataNodes(0).build().shutdown());
    Throwable cause = e;
    while (!(cause instanceof IllegalArgumentException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    assertTrue(cause.getMessage().startsWith("locus.placement.rules names"
        + " org.example.NoSuchRule"), cause.toString());
  }

  @Test
  void aClassThatIsNotAPlacementRuleIsRefusedNamingTheKeyAndTheClass() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> router(String.class.getName()));
    assertEquals("locus.placement.rules names java.lang.String, which is not a "
        + PlacementRule.class.getName() + "; list only placement rules there", e.getMessage());
  }
}
