package org.locus.ndcoupling.namenode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.locus.kit.LocusMiniCluster;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.service.FatBtreeMetrics;
import org.locus.ndcoupling.fatbtree.transport.IndexClient;

/** The NameNode plug-in hosts a one-node Fat-Btree that clients use over Hadoop RPC. */
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
}
