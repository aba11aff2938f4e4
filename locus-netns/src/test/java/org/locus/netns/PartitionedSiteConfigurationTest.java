package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.HAUtil;
import org.apache.hadoop.hdfs.HAUtilClient;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The site files of a coupled ({@code --metadata sdp}) cluster, read the way Hadoop's own
 * DataNode, NameNode and client read them: no cluster is started. Two nodes, too few for
 * metadata copies, so each partition has one NameNode here ({@link PartitionReplicasTest} has
 * the copies).
 */
class PartitionedSiteConfigurationTest {
  private static final File DIR = new File("/srv/clusters/c1");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final StockInstallation STOCK = new StockInstallation(new File(DIR, "hadoop"));

  private static SiteConfiguration site(MetadataLayout metadata) {
    NetnsClusterSpec spec = NetnsClusterSpec.builder(2, new File(DIR, "dist/share/locus/lib"))
        .nodeMemory(1L << 30).diskSize(512L << 20).metadata(metadata).build();
    return new SiteConfiguration(LAYOUT, spec, STOCK);
  }

  private static String rpc(String node) {
    return LAYOUT.address(node) + ":8020";
  }

  @Test
  void everyDataNodeRegistersWithTheNameNodeOfEveryPartition() throws Exception {
    Configuration node2 = site(MetadataLayout.SDP).worker("node2");
    // the list BlockPoolManager starts one BPOfferService per entry of
    Map<String, Map<String, InetSocketAddress>> nameNodes =
        DFSUtil.getNNServiceRpcAddressesForCluster(node2);
    Map<String, String> byPartition = new TreeMap<>();
    nameNodes.forEach((ns, addresses) -> {
      assertEquals(1, addresses.size(), ns + ": one NameNode per partition");
      InetSocketAddress address = addresses.values().iterator().next();
      byPartition.put(ns, address.getHostString() + ":" + address.getPort());
    });
    assertEquals(Map.of("ns1", rpc("node1"), "ns2", rpc("node2")), byPartition);
  }

  @Test
  void eachNodesNameNodeServesItsOwnPartitionFromItsOwnNameDirectory() {
    Configuration node2 = site(MetadataLayout.SDP).worker("node2");
    assertEquals("ns2", node2.get("dfs.nameservice.id"));
    assertEquals("hdfs://ns2", node2.get("fs.defaultFS"), "tools on a node use its partition");
    assertFalse(HAUtil.isHAEnabled(node2, "ns2"), "one NameNode per partition: no HA");
    NameNode.initializeGenericKeys(node2, "ns2", null);
    assertEquals(rpc("node2"), node2.get("dfs.namenode.rpc-address"));
    assertEquals(LAYOUT.address("node2") + ":9870", node2.get("dfs.namenode.http-address"));
    assertEquals(new File(LAYOUT.nodeDir("node2"), "name").toURI().toString(),
        node2.get("dfs.namenode.name.dir"));
  }

  @Test
  void aClientReachesEveryPartitionByItsNameserviceUri() {
    Configuration client = site(MetadataLayout.SDP).client();
    assertEquals("ns1,ns2", client.get("dfs.nameservices"));
    assertEquals("locus://ns1/", client.get("fs.defaultFS"), "the coupled namespace");
    assertEquals(PartitionedNamespace.LOCUS_FILE_SYSTEM, client.get("fs.locus.impl"));
    assertEquals(PartitionedNamespace.LOCUS_FS, client.get("fs.AbstractFileSystem.locus.impl"));
    assertNull(client.get("dfs.nameservice.id"), "a client belongs to no partition");
    Map<String, Map<String, InetSocketAddress>> proxies =
        DFSUtilClient.getAddresses(client, null, "dfs.namenode.rpc-address");
    for (String node : ClusterLayout.workers(2)) {
      String ns = PartitionedNamespace.nameservice(node);
      assertTrue(HAUtilClient.isLogicalUri(client, PartitionedNamespace.uri(ns)), ns);
      assertEquals(PartitionedNamespace.PROXY_PROVIDER,
          client.get("dfs.client.failover.proxy.provider." + ns));
      InetSocketAddress address = proxies.get(ns).values().iterator().next();
      assertEquals(rpc(node), address.getHostString() + ":" + address.getPort());
    }
  }

  @Test
  void withoutSdpTheMasterRunsTheOneNameNode() {
    SiteConfiguration site = site(MetadataLayout.MASTER);
    Configuration node1 = site.worker("node1");
    assertNull(node1.get("dfs.nameservices"));
    assertNull(node1.get("dfs.nameservice.id"));
    assertEquals("hdfs://" + rpc("master"), node1.get("fs.defaultFS"));
    assertEquals(new File(LAYOUT.nodeDir("master"), "name").toURI().toString(),
        site.master().get("dfs.namenode.name.dir"));
  }

  @Test
  void aCoupledNodesNameNodeComesOutOfItsContainerMemory() {
    NetnsClusterSpec spec = NetnsClusterSpec.builder(2, new File(DIR, "dist")).yarn(true)
        .nodeMemory(2L << 30).diskSize(512L << 20).build();
    assertEquals(1280, spec.containerMemoryMb());
    assertEquals(1280 - DaemonRole.NAMENODE.heapMb(),
        spec.withMetadata(MetadataLayout.SDP).containerMemoryMb());
  }

  @Test
  void partitionsAreNamedAfterTheirNodes() {
    assertEquals("ns2", PartitionedNamespace.nameservice("node2"));
    assertEquals("node12", PartitionedNamespace.nodeOf("ns12"));
    assertEquals("CID-locus-" + LAYOUT.id(), site(MetadataLayout.SDP).partitions().clusterId());
    IllegalArgumentException master = assertThrows(IllegalArgumentException.class,
        () -> PartitionedNamespace.nameservice("master"));
    assertTrue(master.getMessage().contains("'master'"), master.getMessage());
  }

  @Test
  void anUnknownLayoutNamesTheOptionAndTheChoices() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MetadataLayout.of("--metadata", "hashed"));
    assertEquals("unknown metadata layout 'hashed' for --metadata; one of master, sdp, fatbtree",
        e.getMessage());
  }

  @Test
  void theSpecFileKeepsTheLayout(@TempDir File tmp) throws Exception {
    File file = new File(tmp, "netns.spec");
    NetnsClusterSpec spec = NetnsClusterSpec.builder(3, new File(DIR, "dist"))
        .nodeMemory(1L << 30).diskSize(512L << 20).metadata(MetadataLayout.SDP).build();
    NetnsSpecFile.write(spec, file);
    assertEquals(spec, NetnsSpecFile.read(file));
  }
}
