package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several clients at several nodes insert, delete and look up at once while the tree splits
 * (and, in one test, while subtrees move between nodes and scans run). Each client owns every
 * {@code CLIENTS}-th key of a shared key space, so clients contend for the same leaves and
 * index pages but each key's final state is known: the union of the clients' own reference maps.
 * Every node keeps a cache of fetched upper pages smaller than what it lacks
 * ({@link FatBtreeCluster#CACHED_PAGES}), so lookups and updates also run through cached copies
 * that splits and moves made stale, and through evictions.
 */
class ConcurrentFatBtreeTest {

  private static final int NODES = 4;
  private static final int CLIENTS = 6;
  private static final int OPS_PER_CLIENT = 4000;
  /** Page files cost a rename per write: fewer operations where the pages are on disk. */
  private static final int OPS_PER_CLIENT_ON_DISK = 300;
  /** Delayed messages make every operation slower: fewer of them where messages are delayed. */
  private static final int OPS_PER_CLIENT_DELAYED = 2000;
  private static final int KEY_SPACE = 4000;
  /** Subtree moves made while the clients run. */
  private static final int MOVES = 40;

  @TempDir
  Path dir;

  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
  }

  private static PathKey key(int i) {
    return PathKey.of("/d" + (i % 8) + "/s" + (i / 8 % 4) + "/f" + i);
  }

  /**
   * One client: random puts, removes and lookups of its own keys, each at a random node, at
   * least {@code ops} of them and on until {@code busy} turns false. A lookup must see the
   * client's own last write (no other client writes those keys).
   */
  private Map<PathKey, Integer> runClient(FatBtreeCluster cluster, long seed, int client,
      int ops, BooleanSupplier busy) {
    Random random = new Random(seed * 1_000_003L + client);
    Map<PathKey, Integer> mine = new HashMap<>();
    for (int op = 0; op < ops || busy.getAsBoolean(); op++) {
      int slot = random.nextInt(KEY_SPACE / CLIENTS);
      PathKey key = key(slot * CLIENTS + client);
      FatBtreeNode node = cluster.node(random.nextInt(cluster.size()));
      int dice = random.nextInt(100);
      if (dice < 60) {
        int owner = random.nextInt(NODES);
        OptionalInt previous = node.put(key, owner);
        assertEquals(opt(mine.put(key, owner)), previous, "previous owner of " + key);
      } else if (dice < 80) {
        assertEquals(mine.remove(key) != null, node.remove(key), "removing " + key);
      } else {
        assertEquals(opt(mine.get(key)), node.lookup(key), "node " + node.nodeId()
            + " looking up " + key);
      }
    }
    return mine;
  }

  private static OptionalInt opt(Integer value) {
    return value == null ? OptionalInt.empty() : OptionalInt.of(value);
  }

  private Map<PathKey, Integer> runClients(FatBtreeCluster cluster, long seed, int ops,
      BooleanSupplier busy) throws Exception {
    List<Future<Map<PathKey, Integer>>> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      int client = c;
      clients.add(pool.submit(() -> runClient(cluster, seed, client, ops, busy)));
    }
    Map<PathKey, Integer> reference = new TreeMap<>();
    for (Future<Map<PathKey, Integer>> f : clients) {
      reference.putAll(f.get(120, TimeUnit.SECONDS));
    }
    return reference;
  }

  private static List<PathKey> allKeys() {
    List<PathKey> keys = new ArrayList<>();
    for (int i = 0; i < KEY_SPACE; i++) {
      keys.add(key(i));
    }
    return keys;
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void concurrentUpdatesLeaveASoundTreeThatAgreesWithTheReference(long seed) throws Exception {
    checkConcurrentUpdates(FatBtreeCluster.startInMemory(NODES, FatBtreeCluster.smallPages(),
        List.of("/d2", "/d4", "/d6")), seed, OPS_PER_CLIENT);
  }

  @Test
  void concurrentUpdatesOnPageDirectoriesSurviveARestart() throws Exception {
    FatBtreeCluster cluster = FatBtreeCluster.start(dir, NODES,
        FatBtreeCluster.smallPages(false), List.of("/d2", "/d4", "/d6"));
    Map<PathKey, Integer> reference = checkConcurrentUpdates(cluster, 7, OPS_PER_CLIENT_ON_DISK);
    for (int i = 0; i < NODES; i++) {
      cluster.restart(i);
    }
    cluster.assertSound();
    cluster.assertAgreesWith(reference, allKeys());
  }

  private Map<PathKey, Integer> checkConcurrentUpdates(FatBtreeCluster cluster, long seed,
      int ops) throws Exception {
    Map<PathKey, Integer> reference = runClients(cluster, seed, ops, () -> false);
    VerificationReport report = cluster.assertSound();
    assertEquals(reference.size(), report.keys());
    assertTrue(report.pagesPerLevel().size() >= 3, report.toString());
    assertCachesWereUsedWithinTheirBound(cluster);
    cluster.assertAgreesWith(reference, allKeys());
    return reference;
  }

  /** Some descents read cached copies, and no node keeps more than its bound. */
  private static void assertCachesWereUsedWithinTheirBound(FatBtreeCluster cluster) {
    long hits = 0;
    for (FatBtreeNode node : cluster.nodes()) {
      hits += node.counters().pageCacheHits.get();
      assertTrue(node.cachedPageCount() <= FatBtreeCluster.CACHED_PAGES, "node "
          + node.nodeId() + " caches " + node.cachedPageCount() + " pages");
    }
    assertTrue(hits > 0, "no descent read a cached copy");
  }

  /**
   * A fifth node holds no leaf, so below the root it reads every upper page from other nodes or
   * its cache: the clients' operations there (a fifth of all) all descend through cached copies
   * while the other nodes split and move the pages under them. Moves go to the four other nodes
   * only, so the fifth stays a node without leaves.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {8, 9})
  void aNodeWithoutLeavesAnswersThroughItsCacheWhileSubtreesMove(long seed) throws Exception {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(NODES + 1,
        FatBtreeCluster.smallPages(), List.of("/d2", "/d4", "/d6"));
    FatBtreeNode leafless = cluster.node(NODES);
    checkMovesAndScans(cluster, seed, OPS_PER_CLIENT);
    assertTrue(leafless.pageCopies().stream().noneMatch(p -> p instanceof LeafPage));
    assertTrue(leafless.counters().pageCacheHits.get() > leafless.counters().pageFetches.get(),
        "node " + NODES + ": " + leafless.counters());
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {4, 5})
  void subtreesMoveAndScansRunWhileClientsUpdate(long seed) throws Exception {
    checkMovesAndScans(FatBtreeCluster.startInMemory(NODES, FatBtreeCluster.smallPages(),
        List.of("/d2", "/d4", "/d6")), seed, OPS_PER_CLIENT);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {6, 7})
  void subtreesMoveAndScansRunWhileClientsUpdateWithMessagesDelayed(long seed)
      throws Exception {
    checkMovesAndScans(FatBtreeCluster.startInMemory(NODES, FatBtreeCluster.smallPages(),
        List.of("/d2", "/d4", "/d6"), true), seed, OPS_PER_CLIENT_DELAYED);
  }

  /**
   * Clients update while one thread makes {@code MOVES} subtree moves (the clients go on until
   * it is done, so every move overlaps updates) and another scans random subtrees.
   */
  private void checkMovesAndScans(FatBtreeCluster cluster, long seed, int ops)
      throws Exception {
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicBoolean moving = new AtomicBoolean(true);
    Future<?> mover = pool.submit(() -> {
      Random random = new Random(seed);
      try {
        for (int m = 0; m < MOVES; m++) {
          PathKey subtree = PathKey.of("/d" + random.nextInt(8) + "/s" + random.nextInt(4));
          cluster.node(random.nextInt(cluster.size())).moveSubtree(subtree,
              random.nextInt(NODES));
        }
      } finally {
        moving.set(false);
      }
    });
    Future<Integer> scanner = pool.submit(() -> {
      Random random = new Random(-seed);
      int scans = 0;
      while (running.get()) {
        PathKey subtree = PathKey.of("/d" + random.nextInt(8));
        List<IndexEntry> entries = cluster.node(random.nextInt(cluster.size()))
            .scanSubtree(subtree);
        for (int i = 0; i < entries.size(); i++) {
          assertTrue(subtree.contains(entries.get(i).key()), entries.get(i).toString());
          assertTrue(i == 0 || entries.get(i - 1).key().compareTo(entries.get(i).key()) < 0,
              "scan of " + subtree + " out of order at " + entries.get(i));
        }
        scans++;
      }
      return scans;
    });
    Map<PathKey, Integer> reference;
    try {
      reference = runClients(cluster, seed, ops, moving::get);
    } finally {
      running.set(false);
    }
    mover.get(60, TimeUnit.SECONDS);
    assertTrue(scanner.get(60, TimeUnit.SECONDS) > 0, "no scan ran during the run");
    cluster.assertSound();
    assertCachesWereUsedWithinTheirBound(cluster);
    cluster.assertAgreesWith(reference, allKeys());
  }
}
