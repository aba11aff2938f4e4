package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locus.ndcoupling.fatbtree.store.PagesShipped;

/**
 * Clients at every node insert, delete, look up and scan while whole nodes are switched off
 * (their copies answer for them), ship their changes at step 1 while the clients go on, and
 * come back. Each client owns every {@code CLIENTS}-th key, so a lookup must see the client's
 * own last write whichever incarnation answers; at the end the tree and every copy are sound and
 * agree with the union of the clients' maps. A broken switch leaves threads waiting on a latch
 * or the gate for good, so the timeout runs in a thread of its own and the test fails.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConcurrentNodeOffTest {

  private static final int NODES = 4;
  private static final int CLIENTS = 4;
  private static final int KEY_SPACE = 2400;
  private static final int CYCLES = 6;
  private static final RandomIndexClient CLIENT =
      new RandomIndexClient(NODES, CLIENTS, KEY_SPACE);

  @TempDir
  Path dir;

  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
  }

  /**
   * Switches nodes off and on while the clients run: each cycle takes {@code offAtOnce} nodes
   * that are not each other's copy holders off, lets the clients run, ships step 1 while they
   * go on, lets them run, and brings the nodes back.
   */
  private List<PagesShipped> switchNodes(FatBtreeCluster cluster, long seed, int offAtOnce) {
    Random random = new Random(seed);
    NodeCopies copies = cluster.copies();
    List<PagesShipped> shipped = new ArrayList<>();
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      int first = random.nextInt(NODES);
      List<Integer> off = offAtOnce == 1 ? List.of(first)
          : List.of(first, (first + 2) % NODES);
      off.forEach(copies::nodeOff);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(30 + random.nextInt(40)));
      off.forEach(n -> shipped.add(copies.nodeReturning(n)));
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(20)));
      off.forEach(copies::nodeBack);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(20)));
    }
    return shipped;
  }

  private void check(FatBtreeCluster cluster, long seed, int ops, int offAtOnce)
      throws Exception {
    AtomicBoolean busy = new AtomicBoolean(true);
    List<Future<Map<PathKey, Integer>>> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      int client = c;
      clients.add(pool.submit(() -> CLIENT.run(cluster, seed, client, ops, busy)));
    }
    List<PagesShipped> shipped;
    try {
      shipped = switchNodes(cluster, seed, offAtOnce);
    } finally {
      busy.set(false);
    }
    Map<PathKey, Integer> reference = new TreeMap<>();
    for (Future<Map<PathKey, Integer>> f : clients) {
      reference.putAll(f.get(180, TimeUnit.SECONDS));
    }
    assertEquals(CYCLES * offAtOnce, shipped.size());
    assertTrue(shipped.stream().mapToInt(PagesShipped::pages).sum() > 0,
        "clients changed pages of off nodes: " + shipped);
    cluster.assertSound();
    List<PathKey> all = new ArrayList<>();
    for (int i = 0; i < KEY_SPACE; i++) {
      all.add(RandomIndexClient.key(i));
    }
    cluster.assertAgreesWith(reference, all);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {11, 12, 13})
  void clientsAgreeWithTheirOwnWritesWhileANodeGoesOffAndReturns(long seed) throws Exception {
    check(FatBtreeCluster.startWithCopies(null, NODES, FatBtreeCluster.smallPages(),
        List.of("/d2", "/d4", "/d6"), false), seed, 1500, 1);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {14, 15})
  void twoNodesOffAtOnceWithMessagesHeldBack(long seed) throws Exception {
    check(FatBtreeCluster.startWithCopies(null, NODES, FatBtreeCluster.smallPages(),
        List.of("/d2", "/d4", "/d6"), true), seed, 800, 2);
  }

  @Test
  void nodesGoingOffAndReturningOnPageDirectoriesSurviveARestart() throws Exception {
    FatBtreeCluster cluster = FatBtreeCluster.startWithCopies(dir, NODES,
        FatBtreeCluster.smallPages(), List.of("/d2", "/d4", "/d6"), false);
    check(cluster, 16, 200, 1);
    for (int i = 0; i < NODES; i++) {
      cluster.restart(i);
    }
    cluster.assertSound();
  }
}
