package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The site files of a {@code --metadata fatbtree} cluster: {@code sdp}'s partitions plus an
 * index node in every NameNode, numbered like its partition. No cluster is started.
 */
class FatBtreeIndexKeysTest {
  private static final File DIR = new File("/srv/clusters/c1");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final StockInstallation STOCK = new StockInstallation(new File(DIR, "hadoop"));
  private static final String GEARS = "org.locus.ndcoupling.namenode.GearNameNodePlugin";

  private static SiteConfiguration site(MetadataLayout metadata, Map<String, String> keys) {
    return site(3, metadata, keys);
  }

  private static SiteConfiguration site(int nodes, MetadataLayout metadata,
      Map<String, String> keys) {
    NetnsClusterSpec spec = NetnsClusterSpec.builder(nodes, new File(DIR, "dist/share/locus/lib"))
        .nodeMemory(1L << 30).diskSize(512L << 20).keys(keys).metadata(metadata).build();
    return new SiteConfiguration(LAYOUT, spec, STOCK);
  }

  @Test
  void everyNodesNameNodeHostsTheIndexNodeOfItsPartitionBesideAFeaturesPlugins() {
    SiteConfiguration site = site(MetadataLayout.FATBTREE, Map.of("dfs.namenode.plugins", GEARS));
    for (String node : ClusterLayout.workers(3)) {
      Configuration conf = site.worker(node);
      assertEquals(PartitionedNamespace.nameservice(node), conf.get("dfs.nameservice.id"));
      assertEquals(Integer.toString(ClusterLayout.index(node)),
          conf.get("locus.ndcoupling.index.node-id"));
      assertEquals(List.of(GEARS, FatBtreeIndexKeys.PLUGIN),
          List.copyOf(conf.getTrimmedStringCollection("dfs.namenode.plugins")));
    }
  }

  @Test
  void everyClientAndDaemonKnowsEveryIndexServer() {
    String peers = "1=" + LAYOUT.address("node1") + ":50130,2=" + LAYOUT.address("node2")
        + ":50130,3=" + LAYOUT.address("node3") + ":50130";
    SiteConfiguration site = site(MetadataLayout.FATBTREE, Map.of());
    assertEquals(peers, site.client().get("locus.ndcoupling.index.peers"));
    assertEquals(peers, site.worker("node2").get("locus.ndcoupling.index.peers"));
    assertNull(site.client().get("locus.ndcoupling.index.node-id"), "a client is no index node");
    assertEquals("ns1,ns2,ns3", site.client().get("dfs.nameservices"));
    assertEquals("org.locus.ndcoupling.fatbtree.client.FatBtreeFs",
        site.client().get("fs.AbstractFileSystem.locusfbt.impl"), "locusfbt:// for FileContext");
  }

  @Test
  void fromThreeNodesOnEveryIndexNodeKeepsACopyOfThePreviousOne() {
    SiteConfiguration three = site(MetadataLayout.FATBTREE, Map.of());
    for (String node : ClusterLayout.workers(3)) {
      assertEquals("true", three.worker(node).get("locus.ndcoupling.index.copies"), node);
    }
    assertEquals("true", three.client().get("locus.ndcoupling.index.copies"),
        "the gear commands on the host switch the index with whole nodes");
    SiteConfiguration two = site(2, MetadataLayout.FATBTREE, Map.of());
    assertNull(two.worker("node1").get("locus.ndcoupling.index.copies"),
        "two nodes: no partition copies, the gears switch DataNodes only");
  }

  @Test
  void aReplicaNameNodeHostsNoIndexNodeButKeepsAFeaturesPlugins() {
    SiteConfiguration site = site(MetadataLayout.FATBTREE, Map.of("dfs.namenode.plugins", GEARS));
    Configuration replica = site.replicaWorker("node2");
    assertEquals("ns1", replica.get("dfs.nameservice.id"), "node2 keeps ns1's copy");
    assertNull(replica.get("locus.ndcoupling.index.node-id"));
    assertEquals(List.of(GEARS),
        List.copyOf(replica.getTrimmedStringCollection("dfs.namenode.plugins")));
    assertEquals("2", site.worker("node2").get("locus.ndcoupling.index.node-id"),
        "node2's own NameNode hosts index node 2");
  }

  @Test
  void sdpHasNoIndex() {
    Configuration node1 = site(MetadataLayout.SDP, Map.of()).worker("node1");
    assertNull(node1.get("locus.ndcoupling.index.node-id"));
    assertNull(node1.get("locus.ndcoupling.index.peers"));
    assertNull(node1.get("dfs.namenode.plugins"));
    assertNull(node1.get("fs.AbstractFileSystem.locusfbt.impl"));
  }
}
