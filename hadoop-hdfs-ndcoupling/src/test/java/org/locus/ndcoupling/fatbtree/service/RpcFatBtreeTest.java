package org.locus.ndcoupling.fatbtree.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsTag;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.locus.ndcoupling.fatbtree.LeafPage;
import org.locus.ndcoupling.fatbtree.Page;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.TreeVerifier;
import org.locus.ndcoupling.fatbtree.VerificationReport;

/**
 * Fat-Btree nodes that reach each other only over Hadoop RPC, each with its own server on its
 * own loopback address: the index behaves as it does in process.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpcFatBtreeTest {

  private static final int NODES = 4;
  private static final int CLIENTS = 4;
  private static final int PUTS_PER_CLIENT = 300;

  @TempDir
  Path dir;

  private RpcIndexCluster cluster;

  @AfterEach
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private RpcIndexCluster start() throws IOException {
    cluster = RpcIndexCluster.start(dir, NODES, "/d03", "/d06", "/d09");
    return cluster;
  }

  /**
   * Clients at every node insert (and remove some of) keys interleaved with each other's, so
   * they share leaves and split the same pages; answers the keys that should be there.
   */
  private Map<PathKey, Integer> insertConcurrently() throws Exception {
    Map<PathKey, Integer> reference = new ConcurrentHashMap<>();
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        done.add(clients.submit(() -> {
          FatBtreeNode node = cluster.node(client % NODES);
          Random random = new Random(client);
          for (int i = 0; i < PUTS_PER_CLIENT; i++) {
            PathKey key = PathKey.of(String.format("/d%02d/c%d-%04d", random.nextInt(12),
                client, i));
            assertEquals(OptionalInt.empty(), node.put(key, client));
            reference.put(key, client);
            if (i % 7 == 6) {
              PathKey gone = reference.keySet().stream()
                  .filter(k -> k.path().contains("/c" + client + "-")).findAny().orElseThrow();
              assertTrue(node.remove(gone), "removing " + gone);
              reference.remove(gone);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(90, TimeUnit.SECONDS);
      }
    } finally {
      clients.shutdownNow();
    }
    return new TreeMap<>(reference);
  }

  private void assertEveryNodeAgrees(Map<PathKey, Integer> reference) {
    VerificationReport report = TreeVerifier.verify(cluster.nodes());
    assertTrue(report.isSound(), report.toString());
    List<IndexEntry> expected = new ArrayList<>();
    reference.forEach((k, v) -> expected.add(new IndexEntry(k, v)));
    for (FatBtreeNode node : cluster.nodes()) {
      for (Map.Entry<PathKey, Integer> e : reference.entrySet()) {
        assertEquals(OptionalInt.of(e.getValue()), node.lookup(e.getKey()),
            "node " + node.nodeId() + " looking up " + e.getKey());
      }
      assertEquals(expected, node.scan(PathKey.ROOT, null), "full scan from node "
          + node.nodeId());
    }
  }

  @Test
  void concurrentInsertsFromEveryNodeLeaveASoundTreeThatEveryNodeAgreesOn() throws Exception {
    start();
    Map<PathKey, Integer> reference = insertConcurrently();
    assertEveryNodeAgrees(reference);
    long splits = 0;
    long received = 0;
    for (FatBtreeNode node : cluster.nodes()) {
      splits += node.counters().leafSplits.get();
      received += node.counters().messagesReceived.get();
    }
    assertTrue(splits > 50, "expected many leaf splits, got " + splits);
    assertTrue(received > 0, "no message crossed the RPC servers");
  }

  @Test
  void forwardsALookupAtMostOnce() throws Exception {
    start();
    Map<PathKey, Integer> reference = insertConcurrently();
    int forwarded = 0;
    for (FatBtreeNode node : cluster.nodes()) {
      for (PathKey key : reference.keySet()) {
        long before = node.counters().forwards.get();
        node.lookup(key);
        long forwards = node.counters().forwards.get() - before;
        assertTrue(forwards <= 1, "node " + node.nodeId() + " forwarded " + key + " "
            + forwards + " times");
        forwarded += (int) forwards;
      }
    }
    assertTrue(forwarded > 0, "no lookup was forwarded, so the test shows nothing");
  }

  @Test
  void aNodeRestartedFromItsPageDirectoryAnswersTheSame() throws Exception {
    start();
    Map<PathKey, Integer> reference = insertConcurrently();
    cluster.stop(2);
    cluster.restart(2);
    assertEveryNodeAgrees(reference);
    PathKey added = PathKey.of("/d05/after-restart");
    cluster.node(0).put(added, 9);
    for (FatBtreeNode node : cluster.nodes()) {
      assertEquals(OptionalInt.of(9), node.lookup(added), "node " + node.nodeId());
    }
  }

  @Test
  void aSubtreeMovedOverRpcIsAnsweredByItsNewNode() throws Exception {
    start();
    Map<PathKey, Integer> reference = insertConcurrently();
    PathKey dir = PathKey.of("/d01");
    assertEquals(0, cluster.node(2).leafNodeOf(PathKey.of("/d01/c0-0000")));
    cluster.node(2).moveSubtree(dir, 3);
    for (FatBtreeNode node : cluster.nodes()) {
      assertEquals(3, node.leafNodeOf(PathKey.of("/d01/c1-0001")), "node " + node.nodeId());
    }
    assertEveryNodeAgrees(reference);
  }

  @Test
  void aStoppedNodeFailsTheCallNamingItsIdAndAddress() throws Exception {
    start();
    PathKey onNodeOne = PathKey.of("/d04/x");
    assertEquals(1, cluster.node(0).leafNodeOf(onNodeOne));
    cluster.stop(1);
    UncheckedIOException e = assertThrows(UncheckedIOException.class,
        () -> cluster.node(0).lookup(onNodeOne));
    String address = cluster.peers().get(1).getHostString() + ":"
        + cluster.peers().get(1).getPort();
    assertTrue(e.getMessage().contains("node 1") && e.getMessage().contains(address),
        e.getMessage());
  }

  @Test
  void publishesEachNodesCountersAndPagesThroughTheMetricsSystem() throws Exception {
    start();
    insertConcurrently();
    for (int i = 0; i < NODES; i++) {
      FatBtreeNode node = cluster.node(i);
      node.lookup(PathKey.of("/d01/probe"));
      Map<String, Number> metrics = new HashMap<>();
      String nodeTag = null;
      MetricsCollectorImpl collector = new MetricsCollectorImpl();
      DefaultMetricsSystem.instance().getSource(FatBtreeMetrics.sourceName(i))
          .getMetrics(collector, true);
      for (MetricsRecord record : collector.getRecords()) {
        assertEquals(FatBtreeMetrics.RECORD, record.name());
        for (AbstractMetric m : record.metrics()) {
          metrics.put(m.name(), m.value());
        }
        for (MetricsTag t : record.tags()) {
          if (t.name().equals("NodeId")) {
            nodeTag = t.value();
          }
        }
      }
      assertEquals(Integer.toString(i), nodeTag);
      assertEquals(node.counters().lookups.get(), metrics.get("Lookups").longValue());
      assertEquals(node.counters().forwards.get(), metrics.get("Forwards").longValue());
      assertEquals(node.counters().leafSplits.get(), metrics.get("LeafSplits").longValue());
      assertEquals(node.counters().messagesSent.get(),
          metrics.get("MessagesSent").longValue());
      assertTrue(metrics.get("MessagesReceived").longValue() > 0, metrics.toString());
      long leaves = node.pageCopies().stream().filter(p -> p instanceof LeafPage).count();
      assertEquals(leaves, metrics.get("PagesAtLevel0").longValue());
      int rootLevel = node.root().level();
      assertEquals(rootLevel, metrics.get("RootLevel").intValue());
      assertEquals(1, metrics.get("PagesAtLevel" + rootLevel).intValue(), "one root copy");
      long pages = 0;
      for (Page ignored : node.pageCopies()) {
        pages++;
      }
      assertEquals(pages, metrics.get("PageCopies").longValue());
      assertEquals(node.counters().pageCacheHits.get(),
          metrics.get("PageCacheHits").longValue());
      assertEquals(node.counters().pageCacheMisses.get(),
          metrics.get("PageCacheMisses").longValue());
      assertEquals(node.counters().pageCacheDrops.get(),
          metrics.get("PageCacheDrops").longValue());
      assertEquals(node.cachedPageCount(), metrics.get("CachedPages").intValue());
    }
  }

  /**
   * The pages a descent passed come back over RPC in one answer and are cached: once node 0's
   * cache has settled, a pass of lookups asks no other node for a page, only forwards to the
   * leaves. Node 0 was a client during the inserts, so its cache starts with copies the later
   * splits made stale; each pass drops the stale copies it meets and fetches current ones,
   * and a pass that fetched without dropping leaves nothing to fetch for the next.
   */
  @Test
  void lookupsOverRpcReadTheUpperPagesFromTheCacheOnceItSettled() throws Exception {
    start();
    Map<PathKey, Integer> reference = insertConcurrently();
    FatBtreeNode node = cluster.node(0);
    long fetchesInPass = -1;
    long hitsInPass = 0;
    for (int pass = 0; pass < 5 && fetchesInPass != 0; pass++) {
      long fetches = node.counters().pageFetches.get();
      long hits = node.counters().pageCacheHits.get();
      for (Map.Entry<PathKey, Integer> e : reference.entrySet()) {
        assertEquals(OptionalInt.of(e.getValue()), node.lookup(e.getKey()));
      }
      fetchesInPass = node.counters().pageFetches.get() - fetches;
      hitsInPass = node.counters().pageCacheHits.get() - hits;
    }
    assertEquals(0, fetchesInPass, node.counters().toString());
    assertTrue(hitsInPass >= reference.size() / 2, node.counters().toString());
    assertTrue(node.cachedPageCount() > 0);
  }
}
