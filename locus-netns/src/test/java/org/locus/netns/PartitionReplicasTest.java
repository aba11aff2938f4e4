package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.HAUtil;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.junit.jupiter.api.Test;

/**
 * Where each partition's metadata copy lives on a coupled cluster of three or more nodes, and
 * the site files read the way Hadoop's own NameNode, ZKFC, DataNode and client read them: no
 * cluster is started.
 */
class PartitionReplicasTest {
  private static final File DIR = new File("/srv/clusters/c1");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final StockInstallation STOCK = new StockInstallation(new File(DIR, "hadoop"));

  private static NetnsClusterSpec spec(int nodes, boolean yarn) {
    return NetnsClusterSpec.builder(nodes, new File(DIR, "dist/share/locus/lib")).yarn(yarn)
        .nodeMemory(3L << 30).diskSize(512L << 20).metadata(MetadataLayout.SDP).build();
  }

  private static SiteConfiguration site(int nodes) {
    return new SiteConfiguration(LAYOUT, spec(nodes, false), STOCK);
  }

  @Test
  void aPartitionsCopyLivesOnTheNextNodeInRingOrder() {
    PartitionReplicas four = new PartitionReplicas(LAYOUT, 4);
    assertEquals("node2", four.replicaNode("ns1"));
    assertEquals("node4", four.replicaNode("ns3"));
    assertEquals("node1", four.replicaNode("ns4"), "the ring wraps around");
    for (String node : ClusterLayout.workers(4)) {
      assertEquals(node, four.replicaNode(four.replicaOf(node)), node);
    }
    assertEquals(List.of("node1", "node2", "node3"), PartitionReplicas.quorumNodes());
  }

  @Test
  void copiesNeedTheThreeQuorumNodes() {
    assertFalse(PartitionReplicas.enabled(spec(2, false)));
    assertTrue(PartitionReplicas.enabled(spec(3, false)));
    assertFalse(PartitionReplicas.enabled(spec(8, false).withMetadata(MetadataLayout.MASTER)));
  }

  @Test
  void everyDataNodeReportsToBothNameNodesOfEveryPartition() throws Exception {
    Configuration node2 = site(3).worker("node2");
    Map<String, Map<String, InetSocketAddress>> nameNodes =
        DFSUtil.getNNServiceRpcAddressesForCluster(node2);
    Map<String, String> byNameNode = new TreeMap<>();
    nameNodes.forEach((ns, addresses) -> addresses.forEach((id, address) ->
        byNameNode.put(ns + "." + id, address.getHostString() + ":" + address.getPort())));
    assertEquals(Map.of(
        "ns1.node1", LAYOUT.address("node1") + ":8020",
        "ns1.node2", LAYOUT.address("node2") + ":8021",
        "ns2.node2", LAYOUT.address("node2") + ":8020",
        "ns2.node3", LAYOUT.address("node3") + ":8021",
        "ns3.node3", LAYOUT.address("node3") + ":8020",
        "ns3.node1", LAYOUT.address("node1") + ":8021"), byNameNode);
  }

  @Test
  void aNodesTwoNameNodesServeDifferentPartitionsOnDifferentPortsAndDirectories() {
    SiteConfiguration site = site(3);
    Configuration own = site.worker("node2");
    Configuration copy = site.replicaWorker("node2");
    assertTrue(HAUtil.isHAEnabled(own, "ns2"));
    assertEquals("ns1", copy.get("dfs.nameservice.id"));
    assertEquals("node2", copy.get("dfs.ha.namenode.id"));
    assertEquals("node2", own.get("dfs.ha.namenode.id"));
    NameNode.initializeGenericKeys(own, "ns2", "node2");
    NameNode.initializeGenericKeys(copy, "ns1", "node2");
    assertEquals(LAYOUT.address("node2") + ":8020", own.get("dfs.namenode.rpc-address"));
    assertEquals(LAYOUT.address("node2") + ":8021", copy.get("dfs.namenode.rpc-address"));
    assertEquals(LAYOUT.address("node2") + ":9871", copy.get("dfs.namenode.http-address"));
    assertEquals("8019", own.get("dfs.ha.zkfc.port"));
    assertEquals("8018", copy.get("dfs.ha.zkfc.port"));
    assertEquals(new File(LAYOUT.nodeDir("node2"), "replica-ns1/name").toURI().toString(),
        copy.get("dfs.namenode.name.dir"));
    assertEquals(new File(LAYOUT.nodeDir("node2"), "conf-ns1"),
        site.replicas().replicaConfDir("node2"));
  }

  @Test
  void editsGoThroughTheJournalQuorumAndFailoverThroughZooKeeper() throws Exception {
    Configuration client = site(3).client();
    String journals = LAYOUT.address("node1") + ":8485;" + LAYOUT.address("node2") + ":8485;"
        + LAYOUT.address("node3") + ":8485";
    assertEquals("qjournal://" + journals + "/ns2", client.get("dfs.namenode.shared.edits.dir.ns2"));
    assertEquals(LAYOUT.address("node1") + ":2181," + LAYOUT.address("node2") + ":2181,"
        + LAYOUT.address("node3") + ":2181", client.get("ha.zookeeper.quorum"));
    assertTrue(client.getBoolean("dfs.ha.automatic-failover.enabled", false));
    assertEquals("shell(/bin/true)", client.get("dfs.ha.fencing.methods"));
    assertEquals(2, DFSUtilClient.getHaNnRpcAddresses(client).get("ns3").size(),
        "a client fails over between the partition's two NameNodes");
    assertEquals(new File(LAYOUT.nodeDir("node3"), "journal").getPath(),
        site(3).worker("node3").get("dfs.journalnode.edits.dir"));
  }

  @Test
  void theZooKeeperEnsembleListsTheThreeQuorumNodes() {
    String cfg = site(4).replicas().zookeeperConfigText("node2");
    assertTrue(cfg.contains("server.1=" + LAYOUT.address("node1") + ":2888:3888\n"), cfg);
    assertTrue(cfg.contains("server.3=" + LAYOUT.address("node3") + ":2888:3888\n"), cfg);
    assertFalse(cfg.contains("server.4"), cfg);
    assertTrue(cfg.contains("dataDir=" + new File(LAYOUT.nodeDir("node2"), "zookeeper")), cfg);
  }

  @Test
  void theCopiesDaemonsComeOutOfANodesContainerMemory() {
    int copies = DaemonRole.REPLICA_NAMENODE.heapMb() + 2 * DaemonRole.ZKFC.heapMb()
        + DaemonRole.JOURNALNODE.heapMb() + DaemonRole.ZOOKEEPER.heapMb();
    assertEquals(3072 - 768 - DaemonRole.NAMENODE.heapMb() - copies,
        spec(3, true).containerMemoryMb());
  }
}
