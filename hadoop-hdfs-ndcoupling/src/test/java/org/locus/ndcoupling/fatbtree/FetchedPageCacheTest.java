package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The cache of fetched upper pages: its bound, and lookups through copies that are current,
 * stale after splits, or stale after a move, from a node that holds no page below the root's
 * children for most keys. Single-threaded, so every count is exact; the concurrent tests
 * ({@code ConcurrentFatBtreeTest}) run the same cache under splits and moves from many clients.
 */
class FetchedPageCacheTest {

  /** Node 0 holds /d0 only; /d1, /d2 and /d3 start on nodes 1, 2 and 3. */
  private static final List<String> QUARTERS = List.of("/d1", "/d2", "/d3");
  /** Enough for every upper page node 0 lacks in these trees: nothing is evicted. */
  private static final int ROOMY = 4096;

  private static PathKey file(int d, int f) {
    return PathKey.of("/d" + d + "/f" + String.format("%04d", f));
  }

  private static FatBtreeCluster cluster(int cachedPages) throws IOException {
    return FatBtreeCluster.startInMemory(4,
        FatBtreeCluster.smallPages().withCachedPages(cachedPages), QUARTERS);
  }

  /** Files 0 until {@code to} of /d1../d3, each put by its own directory's node. */
  private static void fill(FatBtreeCluster cluster, Map<PathKey, Integer> reference, int from,
      int to) {
    for (int f = from; f < to; f++) {
      for (int d = 1; d < 4; d++) {
        cluster.node(d).put(file(d, f), d);
        reference.put(file(d, f), d);
      }
    }
  }

  private static void lookUpAll(FatBtreeNode node, Map<PathKey, Integer> reference) {
    reference.forEach((key, owner) -> assertEquals(OptionalInt.of(owner), node.lookup(key),
        "node " + node.nodeId() + " looking up " + key));
  }

  /** Counter deltas of one node over a stretch of a test. */
  private static final class Delta {
    private final NodeCounters counters;
    private final long hits;
    private final long misses;
    private final long fetches;
    private final long retries;

    Delta(FatBtreeNode node) {
      counters = node.counters();
      hits = counters.pageCacheHits.get();
      misses = counters.pageCacheMisses.get();
      fetches = counters.pageFetches.get();
      retries = counters.retries.get();
    }

    long hits() {
      return counters.pageCacheHits.get() - hits;
    }

    long misses() {
      return counters.pageCacheMisses.get() - misses;
    }

    long fetches() {
      return counters.pageFetches.get() - fetches;
    }

    long retries() {
      return counters.retries.get() - retries;
    }
  }

  @Test
  void keepsAtMostItsCapacityAndEvictsTheLeastRecentlyUsedPage() {
    FetchedPageCache cache = new FetchedPageCache(3);
    for (long id = 1; id <= 3; id++) {
      cache.put(indexPage(id));
    }
    assertNotNull(cache.get(1));
    cache.put(indexPage(4));
    assertEquals(3, cache.size());
    assertNull(cache.get(2), "page 2 was the least recently used");
    assertNotNull(cache.get(1));
    assertNotNull(cache.get(3));
    assertNotNull(cache.get(4));
    assertTrue(cache.remove(3));
    assertEquals(2, cache.size());
  }

  @Test
  void aCacheOfNoPagesKeepsNothing() {
    FetchedPageCache cache = new FetchedPageCache(0);
    cache.put(indexPage(1));
    assertEquals(0, cache.size());
    assertThrows(IllegalArgumentException.class, () -> new FetchedPageCache(-1));
  }

  private static IndexPage indexPage(long id) {
    return new IndexPage(id, 1, null, null, NodeSet.of(0),
        null, List.of(new ChildPointer(null, 100 + id, NodeSet.of(0))));
  }

  @Test
  void aWarmCacheAnswersLookupsWithoutAskingForPages() throws IOException {
    FatBtreeCluster cluster = cluster(ROOMY);
    Map<PathKey, Integer> reference = new TreeMap<>();
    fill(cluster, reference, 0, 200);
    FatBtreeNode node = cluster.node(0);
    assertTrue(cluster.assertSound().pagesPerLevel().size() >= 5, "levels to skip");

    Delta cold = new Delta(node);
    lookUpAll(node, reference);
    assertTrue(cold.fetches() > 0, "node 0 lacks the upper pages of /d1../d3");
    assertEquals(cold.misses(), cold.fetches(), "each miss is one page fetch");

    Delta warm = new Delta(node);
    lookUpAll(node, reference);
    assertEquals(0, warm.fetches(), "every upper page node 0 lacks is cached");
    assertEquals(0, warm.misses());
    assertTrue(warm.hits() >= reference.size(), "at least one cached page per lookup: "
        + warm.hits());
    assertTrue(node.cachedPageCount() > 0);
  }

  @Test
  void theNumberOfCachedPagesStaysWithinTheBound() throws IOException {
    int bound = 5;
    FatBtreeCluster cluster = cluster(bound);
    Map<PathKey, Integer> reference = new TreeMap<>();
    fill(cluster, reference, 0, 200);
    FatBtreeNode node = cluster.node(0);
    Delta delta = new Delta(node);
    for (PathKey key : reference.keySet()) {
      assertEquals(OptionalInt.of(reference.get(key)), node.lookup(key));
      assertTrue(node.cachedPageCount() <= bound, node.cachedPageCount() + " cached pages");
    }
    assertEquals(bound, node.cachedPageCount(), "the cache filled up to its bound");
    assertTrue(delta.hits() > 0 && delta.misses() > 0, "hits " + delta.hits() + ", misses "
        + delta.misses());
  }

  @Test
  void withoutACacheEveryLookupAsksForTheUpperPagesAgain() throws IOException {
    FatBtreeCluster cluster = cluster(0);
    Map<PathKey, Integer> reference = new TreeMap<>();
    fill(cluster, reference, 0, 100);
    FatBtreeNode node = cluster.node(0);
    lookUpAll(node, reference);
    Delta again = new Delta(node);
    lookUpAll(node, reference);
    assertTrue(again.fetches() > reference.size() / 2, again.fetches() + " fetches");
    assertEquals(0, again.hits() + again.misses(), "no cache to count");
    assertEquals(0, node.cachedPageCount());
  }

  /**
   * Node 0 caches the upper pages of /d1../d3, then nodes 1..3 insert four times as many keys:
   * leaves and index pages below those copies split, so the copies are old. Lookups at node 0
   * still agree with the reference, and once the stale copies were found and replaced a second
   * pass needs no fetch again.
   */
  @Test
  void staleCopiesAfterSplitsStillRouteEveryLookupToItsLeaf() throws IOException {
    FatBtreeCluster cluster = cluster(ROOMY);
    Map<PathKey, Integer> reference = new TreeMap<>();
    fill(cluster, reference, 0, 50);
    FatBtreeNode node = cluster.node(0);
    lookUpAll(node, reference);
    fill(cluster, reference, 50, 250);
    assertTrue(staleCopies(cluster, node) > 0, "the inserts split pages node 0 has cached");

    Delta delta = new Delta(node);
    lookUpAll(node, reference);
    assertTrue(delta.hits() > 0, "lookups went through the cached copies");
    cluster.assertSound();
    cluster.assertAgreesWith(reference, List.of(file(1, 9999), file(3, 9999)));
  }

  /** How many of {@code node}'s cached copies differ from the current page. */
  private static int staleCopies(FatBtreeCluster cluster, FatBtreeNode node) {
    Map<Long, Page> current = new HashMap<>();
    for (FatBtreeNode n : cluster.nodes()) {
      n.pageCopies().forEach(p -> current.put(p.id(), p));
    }
    int stale = 0;
    for (Map.Entry<Long, Page> e : current.entrySet()) {
      IndexPage cached = node.cachedCopy(e.getKey());
      if (cached != null && !cached.equals(e.getValue())) {
        stale++;
      }
    }
    return stale;
  }

  /**
   * Node 0 caches the path to /d1's leaves on node 1, then /d1 moves to node 2. Every lookup at
   * node 0 is answered right: the first through a cached copy sends it to node 1, which no
   * longer has the leaf and answers RETRY, and the lookup descends again without the cache.
   * After that pass node 0's copies are current: the lookups go to node 2 alone, with no
   * retry, no page fetch, and no message to node 1.
   */
  @Test
  void aMovedLeafRangeIsAnsweredByItsNewNodeThroughAWarmCache() throws IOException {
    FatBtreeCluster cluster = cluster(ROOMY);
    TreeMap<PathKey, Integer> reference = new TreeMap<>();
    fill(cluster, reference, 0, 150);
    Map<PathKey, Integer> moved = new TreeMap<>(reference.subMap(PathKey.of("/d1"),
        PathKey.of("/d1").subtreeEnd()));
    FatBtreeNode node = cluster.node(0);
    lookUpAll(node, moved);
    assertEquals(1, node.leafNodeOf(file(1, 0)));

    cluster.node(2).moveSubtree(PathKey.of("/d1"), 2);
    assertEquals(2, node.leafNodeOf(file(1, 0)), "leafNodeOf reads no cached copy");
    Delta first = new Delta(node);
    lookUpAll(node, moved);
    assertTrue(first.retries() > 0, "a cached copy still named node 1");

    Delta second = new Delta(node);
    long toNodeOne = cluster.node(1).counters().messagesReceived.get();
    long toNodeTwo = cluster.node(2).counters().messagesReceived.get();
    lookUpAll(node, moved);
    assertEquals(0, second.retries());
    assertEquals(0, second.fetches());
    assertEquals(toNodeOne, cluster.node(1).counters().messagesReceived.get(),
        "node 1 no longer answers for /d1");
    assertEquals(moved.size(), cluster.node(2).counters().messagesReceived.get() - toNodeTwo,
        "one forward to node 2 per lookup");
    cluster.assertSound();
    cluster.assertAgreesWith(reference, List.of());
  }

  /** A copy of a page stored on a node leaves its cache: the node's own copy is read instead. */
  @Test
  void aPageStoredOnTheNodeLeavesItsCache() throws IOException {
    FatBtreeCluster cluster = cluster(ROOMY);
    Map<PathKey, Integer> reference = new TreeMap<>();
    fill(cluster, reference, 0, 150);
    FatBtreeNode node = cluster.node(0);
    lookUpAll(node, reference);
    int before = node.cachedPageCount();
    cluster.node(1).moveSubtree(PathKey.of("/d1"), 0);
    assertTrue(node.cachedPageCount() < before, "the pages above /d1 now stored on node 0");
    for (Page page : node.pageCopies()) {
      assertNull(node.cachedCopy(page.id()), "page " + page.id() + " both stored and cached");
    }
    Delta delta = new Delta(node);
    lookUpAll(node, reference);
    cluster.assertAgreesWith(reference, List.of());
    assertTrue(delta.hits() > 0);
  }
}
