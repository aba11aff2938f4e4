package org.apache.hadoop.hdfs.server.blockmanagement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.gear.GearPlan;
import org.locus.ndcoupling.gear.UpdateLog;
import org.locus.ndcoupling.gear.UpdateLogEntry;

/**
 * The partition rule on Hadoop's own placement fixture ({@link BaseReplicationPolicyTest}: a
 * NameNode with six DataNodes, 1.1.1.1 to 6.6.6.6, on two racks), as the NameNode of the
 * partition whose node is 5.5.5.5 in the ring 1.1.1.1 .. 6.6.6.6, the partition rule listed
 * before the gear rule.
 */
class PartitionPlacementRuleTest extends BaseReplicationPolicyTest {
  private static final List<String> RING =
      List.of("1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4", "5.5.5.5", "6.6.6.6");

  private Path logDir;
  private UpdateLog log;

  PartitionPlacementRuleTest() {
    this.blockPlacementPolicy = RoutingBlockPlacementPolicy.class.getName();
  }

  @Override
  DatanodeDescriptor[] getDatanodeDescriptors(Configuration conf) {
    conf.set("locus.placement.rules", PartitionPlacementRule.class.getName() + ","
        + GearPlacementRule.class.getName());
    conf.set(NdCouplingConfigKeys.PARTITION_RING, String.join(",", RING));
    conf.set(NdCouplingConfigKeys.PARTITION_HOME, "5.5.5.5");
    storages = DFSTestUtil.createDatanodeStorageInfos(
        new String[] {"/r1", "/r1", "/r1", "/r2", "/r2", "/r2"});
    return DFSTestUtil.toDatanodeDescriptor(storages);
  }

  @BeforeEach
  void registerHosts() throws Exception {
    // The fixture puts its nodes in the topology only; the rule finds nodes by host.
    for (DatanodeDescriptor node : dataNodes) {
      dnManager.getHost2DatanodeMap().add(node);
    }
    logDir = Files.createTempDirectory("partition-rule");
    log = UpdateLog.open(logDir.resolve("update.log"));
  }

  @AfterEach
  void closeLog() throws Exception {
    log.close();
  }

  private DatanodeStorageInfo[] place(int replicas) {
    BlockStoragePolicy policy = namenode.getNamesystem().getBlockManager()
        .getStoragePolicySuite().getDefaultPolicy();
    return ((RoutingBlockPlacementPolicy) replicator).chooseTarget("/p/file", replicas,
        dataNodes[0], new HashSet<>(), BLOCK_SIZE, null, policy, null);
  }

  private static List<String> hosts(DatanodeStorageInfo[] targets) {
    return Arrays.stream(targets).map(t -> t.getDatanodeDescriptor().getIpAddr()).toList();
  }

  private GearPlacementRule gears() {
    return ((RoutingBlockPlacementPolicy) replicator).rule(GearPlacementRule.class).get();
  }

  @Test
  void placesTheFirstReplicaOnThePartitionsNodeAndTheOthersOnTheNextNodesOfTheRing() {
    assertEquals(List.of("5.5.5.5", "6.6.6.6", "1.1.1.1"), hosts(place(3)));
    assertEquals(List.of("5.5.5.5", "6.6.6.6"), hosts(place(2)));
  }

  @Test
  void inTheTopGearNothingIsLogged() {
    GearPlan plan = GearPlan.parse(GearPlan.alternating(RING), GearPlan.ringStandIns(RING));
    gears().useState(new GearPlacementRule.GearState(plan, 1, log, path -> 7));
    assertEquals(List.of("5.5.5.5", "6.6.6.6", "1.1.1.1"), hosts(place(3)));
    assertEquals(0, log.pendingCount());
  }

  @Test
  void anOffReplicaNodesReplicaGoesToAStandInAndIsLogged() throws Exception {
    // Gear 0: 1, 3, 5 on; 6 is off and its plan stand-in (1) already holds a replica, so the
    // one node that is on and holds none (3) takes it.
    GearPlan plan = GearPlan.parse(GearPlan.alternating(RING), GearPlan.ringStandIns(RING));
    gears().useState(new GearPlacementRule.GearState(plan, 0, log, path -> 7));
    assertEquals(List.of("5.5.5.5", "3.3.3.3", "1.1.1.1"), hosts(place(3)));
    List<UpdateLogEntry> pending = log.pending();
    assertEquals(1, pending.size());
    assertEquals("/p/file", pending.get(0).path());
    assertEquals(7, pending.get(0).inodeId());
    assertEquals("3.3.3.3", pending.get(0).standIn());
    assertEquals("6.6.6.6", pending.get(0).intended());
  }

  @Test
  void theRuleNamesTheRingFromItsOwnNode() {
    assertEquals(List.of("5.5.5.5", "6.6.6.6", "1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"),
        ((RoutingBlockPlacementPolicy) replicator).rule(PartitionPlacementRule.class).get()
            .ring());
  }

  @Test
  void aPartitionWhoseOwnNodeIsNotADataNodeIsLeftToTheDefault() {
    Configuration conf = new Configuration(false);
    conf.set("dfs.nameservices", "ns1,ns2");
    conf.set("dfs.namenode.rpc-address.ns1", "10.0.0.1:8020");
    conf.set("dfs.namenode.rpc-address.ns2", "10.0.0.2:8020");
    assertEquals(List.of("10.0.0.1", "10.0.0.2"), PartitionPlacementRule.ringOf(conf));
    PartitionPlacementRule rule = new PartitionPlacementRule();
    conf.set("dfs.nameservice.id", "ns2");
    rule.initialize(conf, (RoutingBlockPlacementPolicy) replicator);
    assertEquals(List.of("10.0.0.2", "10.0.0.1"), rule.ring());
    assertNull(rule.chooseNewBlockTargets("/p/file", 3, dataNodes[0], new HashSet<>(),
        BLOCK_SIZE, null, null, null));
  }
}
