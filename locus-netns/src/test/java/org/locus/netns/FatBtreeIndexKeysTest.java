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
    NetnsClusterSpec spec = NetnsClusterSpec.builder(3, new File(DIR, "dist/share/locus/lib"))
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
  void sdpHasNoIndex() {
    Configuration node1 = site(MetadataLayout.SDP, Map.of()).worker("node1");
    assertNull(node1.get("locus.ndcoupling.index.node-id"));
    assertNull(node1.get("locus.ndcoupling.index.peers"));
    assertNull(node1.get("dfs.namenode.plugins"));
    assertNull(node1.get("fs.AbstractFileSystem.locusfbt.impl"));
  }
}
