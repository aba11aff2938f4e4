package org.locus.ndcoupling.namenode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.locus.kit.LocusMiniCluster;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.NodeCopies;
import org.locus.ndcoupling.fatbtree.service.CopiedIndexNode;
import org.locus.ndcoupling.fatbtree.service.FatBtreeMetrics;
import org.locus.ndcoupling.fatbtree.service.IndexNodeService;
import org.locus.ndcoupling.fatbtree.transport.IndexAdminClient;
import org.locus.ndcoupling.fatbtree.transport.IndexClient;

/**
 * The NameNode plug-in hosts a one-node Fat-Btree that clients use over Hadoop RPC, and with
 * copies an index node that mirrors to the next node and is switched through the switch
 * administration.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FatBtreeNameNodePluginTest {

  @Test
  void servesAOneNodeIndexThatAClientUsesOverRpc() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    File base = new File("target/test-clusters/fatbtree-plugin");
    FileUtil.fullyDelete(base);
    File indexDir = new File(base, "index");
    try (LocusMiniCluster cluster = LocusMiniCluster.builder(base).nodes(1)
        .set("dfs.namenode.plugins", FatBtreeNameNodePlugin.class.getName())
        .set(NdCouplingConfigKeys.INDEX_NODE_ID, "0")
        .set(NdCouplingConfigKeys.INDEX_PEERS, "0=127.0.0.1:" + port)
        .set(NdCouplingConfigKeys.INDEX_DIR, indexDir.getAbsolutePath())
        .set(NdCouplingConfigKeys.INDEX_LEAF_CAPACITY, "4")
        .set(NdCouplingConfigKeys.INDEX_SYNC_WRITES, "false")
        .start();
        IndexClient client = IndexClient.connect(cluster.getConfiguration(),
            new InetSocketAddress("127.0.0.1", port))) {
      for (int i = 0; i < 40; i++) {
        assertEquals(OptionalInt.empty(), client.put("/data/file-" + i, i % 3));
      }
      for (int i = 0; i < 40; i++) {
        assertEquals(OptionalInt.of(i % 3), client.lookup("/data/file-" + i), "file-" + i);
      }
      assertEquals(OptionalInt.empty(), client.lookup("/data/none"));
      assertTrue(client.remove("/data/file-7"));
      assertEquals(OptionalInt.empty(), client.lookup("/data/file-7"));
      assertEquals(0, client.leafNodeOf("/data/file-3"));
      assertNotNull(DefaultMetricsSystem.instance().getSource(FatBtreeMetrics.sourceName(0)),
          "the index's metrics source in the NameNode's metrics system");
      assertTrue(new File(indexDir, "node.fbt").isFile(), "page directory formatted");
    }
  }

  private static int freePort(String host) throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      return probe.getLocalPort();
    }
  }

  @Test
  void withCopiesTheNameNodesIndexNodeMirrorsToTheNextNodeAndItsCopyAnswersWhenItIsOff()
      throws Exception {
    String peers = "0=127.0.0.1:" + freePort("127.0.0.1") + ",1=127.0.0.2:"
        + freePort("127.0.0.2") + ",2=127.0.0.3:" + freePort("127.0.0.3");
    File base = new File("target/test-clusters/fatbtree-plugin-copies");
    FileUtil.fullyDelete(base);
    List<IndexNodeService> others = new ArrayList<>();
    try (LocusMiniCluster cluster = LocusMiniCluster.builder(base).nodes(1)
        .set("dfs.namenode.plugins", FatBtreeNameNodePlugin.class.getName())
        .set(NdCouplingConfigKeys.INDEX_NODE_ID, "0")
        .set(NdCouplingConfigKeys.INDEX_PEERS, peers)
        .set(NdCouplingConfigKeys.INDEX_COPIES, "true")
        .set(NdCouplingConfigKeys.INDEX_DIR, new File(base, "index-0").getAbsolutePath())
        .set(NdCouplingConfigKeys.INDEX_LEAF_CAPACITY, "4")
        .set(NdCouplingConfigKeys.INDEX_SYNC_WRITES, "false")
        .start()) {
      for (int k = 1; k <= 2; k++) {
        Configuration conf = new Configuration(cluster.getConfiguration());
        conf.set(NdCouplingConfigKeys.INDEX_NODE_ID, Integer.toString(k));
        conf.set(NdCouplingConfigKeys.INDEX_DIR, new File(base, "index-" + k).getAbsolutePath());
        others.add(IndexNodeService.start(conf, null).orElseThrow());
      }
      InetSocketAddress inNameNode = NetUtils.createSocketAddr(peers.split(",")[0]
          .substring(2));
      try (IndexClient client = IndexClient.connect(cluster.getConfiguration(), inNameNode)) {
        for (int i = 0; i < 40; i++) {
          client.put("/data/file-" + i, i % 3);
        }
      }
      CopiedIndexNode holder = others.get(0).copies().orElseThrow();
      assertEquals(0, holder.copied(), "node 1 keeps the NameNode's index node's copy");
      assertTrue(holder.counters().pagesMirrored.get() > 0, "the plug-in's writes mirrored");
      assertTrue(new File(base, "index-1/copy-of-node-0/node.fbt").isFile());
      assertNotNull(DefaultMetricsSystem.instance().getSource(FatBtreeMetrics.sourceName(0)));

      try (IndexAdminClient admin = IndexAdminClient.connect(cluster.getConfiguration(),
          others.get(0).address());
          IndexClient atNode2 = IndexClient.connect(cluster.getConfiguration(),
              others.get(1).address())) {
        admin.nodeOff(0);
        assertEquals(NodeCopies.State.OFF, admin.state(0));
        assertNotNull(holder.copyIncarnation(), "node 1 answers for node 0");
        for (int i = 0; i < 40; i++) {
          assertEquals(OptionalInt.of(i % 3), atNode2.lookup("/data/file-" + i), "file-" + i);
        }
      }
    } finally {
      others.forEach(IndexNodeService::close);
    }
  }
}
