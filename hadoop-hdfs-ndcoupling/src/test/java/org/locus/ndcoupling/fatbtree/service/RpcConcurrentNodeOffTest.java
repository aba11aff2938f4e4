package org.locus.ndcoupling.fatbtree.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.RandomIndexClient;
import org.locus.ndcoupling.fatbtree.VerificationReport;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;
import org.locus.ndcoupling.fatbtree.transport.IndexAdminClient;

/**
 * {@code ConcurrentNodeOffTest} over Hadoop RPC: clients at every node go on while whole nodes
 * are switched off (their servers stopped), started again for step 1, which ships while the
 * clients go on, and taken back, all through the switch administration. Each client owns every
 * {@code CLIENTS}-th key, so a lookup must see the client's own last write whichever
 * incarnation answers; at the end the verifier checks the tree and every node's copy, and every
 * node answers every key. A switch that strands a latch or a gate leaves threads waiting for
 * good, so the timeout runs in a thread of its own and the test fails.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RpcConcurrentNodeOffTest {

  private static final int NODES = 4;
  private static final int CLIENTS = 4;
  private static final int KEY_SPACE = 1600;
  private static final int CYCLES = 4;
  private static final int OPS = 400;
  private static final RandomIndexClient CLIENT =
      new RandomIndexClient(NODES, CLIENTS, KEY_SPACE);

  @TempDir
  Path dir;

  private final ExecutorService pool = Executors.newCachedThreadPool();
  private RpcIndexCluster cluster;

  @AfterEach
  void stop() throws InterruptedException {
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * Each cycle takes {@code offAtOnce} nodes that are not each other's copy holders off and
   * stops their servers, lets the clients run, starts the servers again and ships step 1 while
   * the clients go on, lets them run, and takes the nodes back.
   */
  private List<ReturnShipped> switchNodes(long seed, int offAtOnce) throws IOException {
    Random random = new Random(seed);
    List<ReturnShipped> shipped = new ArrayList<>();
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      int first = random.nextInt(NODES);
      List<Integer> off = offAtOnce == 1 ? List.of(first)
          : List.of(first, (first + 2) % NODES);
      for (int n : off) {
        try (IndexAdminClient admin = cluster.admin()) {
          admin.nodeOff(n);
        }
        cluster.stopHost(n);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100 + random.nextInt(100)));
      for (int n : off) {
        cluster.startHost(n);
      }
      for (int n : off) {
        try (IndexAdminClient admin = cluster.admin()) {
          shipped.add(admin.nodeReturning(n));
        }
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(50)));
      for (int n : off) {
        try (IndexAdminClient admin = cluster.admin()) {
          admin.nodeBack(n);
        }
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(50)));
    }
    return shipped;
  }

  private void check(long seed, int offAtOnce) throws Exception {
    cluster = RpcIndexCluster.startWithCopies(dir, NODES, "/d2", "/d4", "/d6");
    AtomicBoolean busy = new AtomicBoolean(true);
    List<Future<Map<PathKey, Integer>>> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      int client = c;
      clients.add(pool.submit(() -> CLIENT.run(cluster, seed, client, OPS, busy)));
    }
    List<ReturnShipped> shipped;
    try {
      shipped = switchNodes(seed, offAtOnce);
    } finally {
      busy.set(false);
    }
    Map<PathKey, Integer> reference = new TreeMap<>();
    for (Future<Map<PathKey, Integer>> f : clients) {
      reference.putAll(f.get(120, TimeUnit.SECONDS));
    }
    assertEquals(CYCLES * offAtOnce, shipped.size());
    assertTrue(shipped.stream().mapToInt(ReturnShipped::pages).sum() > 0,
        "clients changed pages of off nodes: " + shipped);
    VerificationReport report = cluster.verifyWithCopies();
    assertTrue(report.isSound(), report.toString());
    List<IndexEntry> all = new ArrayList<>();
    reference.forEach((k, v) -> all.add(new IndexEntry(k, v)));
    for (int n = 0; n < NODES; n++) {
      for (int i = 0; i < KEY_SPACE; i++) {
        PathKey k = RandomIndexClient.key(i);
        assertEquals(RandomIndexClient.opt(reference.get(k)), cluster.at(n, x -> x.lookup(k)),
            "node " + n + " looking up " + k);
      }
      assertEquals(all, cluster.at(n, x -> x.scan(PathKey.ROOT, null)), "full scan at " + n);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {21, 22, 23})
  void clientsAgreeWithTheirOwnWritesWhileANodeGoesOffAndReturns(long seed) throws Exception {
    check(seed, 1);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {24})
  void twoNodesOffAtOnce(long seed) throws Exception {
    check(seed, 2);
  }
}
