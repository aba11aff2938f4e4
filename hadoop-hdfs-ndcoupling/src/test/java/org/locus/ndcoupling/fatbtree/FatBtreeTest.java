package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.ndcoupling.fatbtree.store.CorruptPageException;

/** Single-client behaviour of the Fat-Btree over four in-process nodes. */
class FatBtreeTest {

  private static final List<String> QUARTERS = List.of("/d1", "/d2", "/d3");

  @TempDir
  Path dir;

  private static PathKey file(int d, int f) {
    return PathKey.of("/d" + d + "/f" + String.format("%04d", f));
  }

  private static Map<PathKey, Integer> fill(FatBtreeCluster cluster, int perDir) {
    Map<PathKey, Integer> reference = new TreeMap<>();
    for (int f = 0; f < perDir; f++) {
      for (int d = 0; d < 4; d++) {
        PathKey key = file(d, f);
        cluster.node((f + d) % cluster.size()).put(key, d);
        reference.put(key, d);
      }
    }
    return reference;
  }

  @Test
  void answersTheSameFromEveryNode() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(4,
        FatBtreeCluster.smallPages(), QUARTERS);
    Map<PathKey, Integer> reference = fill(cluster, 200);
    VerificationReport report = cluster.assertSound();
    assertTrue(report.pagesPerLevel().size() >= 4, "a tree several levels high: " + report);
    cluster.assertAgreesWith(reference, List.of(PathKey.of("/d9"), PathKey.of("/d1/f")));
  }

  @Test
  void keepsTheRootOnEveryNodeAndEachLeafOnOne() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(4,
        FatBtreeCluster.smallPages(), QUARTERS);
    fill(cluster, 100);
    RootRef root = cluster.node(0).root();
    for (FatBtreeNode node : cluster.nodes()) {
      assertEquals(root, node.root());
      assertTrue(node.pageCopies().stream().anyMatch(p -> p.id() == root.pageId()));
    }
    long leaves = cluster.nodes().stream().flatMap(n -> n.pageCopies().stream())
        .filter(p -> p instanceof LeafPage).count();
    assertEquals(cluster.assertSound().pagesPerLevel().get(0).longValue(), leaves);
  }

  @Test
  void forwardsALookupAtMostOnce() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(4,
        FatBtreeCluster.smallPages(), QUARTERS);
    fill(cluster, 100);
    FatBtreeNode node = cluster.node(0);
    long before = node.counters().forwards.get();
    int remote = 0;
    for (int d = 0; d < 4; d++) {
      for (int f = 0; f < 100; f++) {
        node.lookup(file(d, f));
        if (node.leafNodeOf(file(d, f)) != 0) {
          remote++;
        }
      }
    }
    assertEquals(remote, node.counters().forwards.get() - before);
    assertTrue(remote > 0);
  }

  /**
   * Node 0 holds no page below the root's children for /d1../d3: it reads what it lacks with
   * one message that descends as far as the answering node's copies go (1.33 fetches per lookup
   * measured, against 5 levels below the root), plus the one forward. Without the cache of
   * fetched pages, which would otherwise answer most of these (FetchedPageCacheTest).
   */
  @Test
  void readsTheUpperPagesItLacksInAboutOneMessagePerLookup() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(4,
        FatBtreeCluster.smallPages().withCachedPages(0), QUARTERS);
    fill(cluster, 200);
    FatBtreeNode node = cluster.node(0);
    long fetches = node.counters().pageFetches.get();
    long sent = node.counters().messagesSent.get();
    int lookups = 0;
    for (int d = 1; d < 4; d++) {
      for (int f = 0; f < 200; f++) {
        assertEquals(OptionalInt.of(d), node.lookup(file(d, f)));
        lookups++;
      }
    }
    double fetchesPerLookup = (node.counters().pageFetches.get() - fetches) / (double) lookups;
    double messagesPerLookup = (node.counters().messagesSent.get() - sent) / (double) lookups;
    assertTrue(cluster.assertSound().pagesPerLevel().size() >= 6, "levels to skip");
    assertTrue(fetchesPerLookup < 1.5, fetchesPerLookup + " page fetches per lookup");
    assertTrue(messagesPerLookup < 2.5, messagesPerLookup + " messages per lookup");
  }

  @Test
  void countsEveryMessageAtBothEnds() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(4,
        FatBtreeCluster.smallPages(), QUARTERS);
    fill(cluster, 100);
    cluster.node(1).moveSubtree(PathKey.of("/d0"), 2);
    cluster.node(3).scanSubtree(PathKey.ROOT);
    long sent = cluster.nodes().stream().mapToLong(n -> n.counters().messagesSent.get()).sum();
    long received = cluster.nodes().stream()
        .mapToLong(n -> n.counters().messagesReceived.get()).sum();
    assertEquals(sent, received);
    assertTrue(cluster.nodes().stream().allMatch(n -> n.counters().messagesReceived.get() > 0));
    assertTrue(cluster.nodes().stream().mapToLong(n -> n.counters().leafSplits.get()).sum() > 0);
    assertEquals(1, cluster.nodes().stream()
        .filter(n -> n.counters().leavesMoved.get() > 0).count());
  }

  @Test
  void removesKeysLazily() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(4,
        FatBtreeCluster.smallPages(), QUARTERS);
    Map<PathKey, Integer> reference = fill(cluster, 100);
    List<PathKey> removed = new ArrayList<>();
    for (PathKey key : new ArrayList<>(reference.keySet())) {
      if (key.path().hashCode() % 3 == 0) {
        assertTrue(cluster.node(key.path().length() % 4).remove(key));
        assertFalse(cluster.node(1).remove(key));
        reference.remove(key);
        removed.add(key);
      }
    }
    cluster.assertSound();
    cluster.assertAgreesWith(reference, removed);
  }

  @Test
  void replacesTheOwnerOfAnExistingKey() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(2,
        FatBtreeCluster.smallPages(), List.of());
    PathKey key = PathKey.of("/a/b");
    assertEquals(OptionalInt.empty(), cluster.node(0).put(key, 7));
    assertEquals(OptionalInt.of(7), cluster.node(1).put(key, 9));
    assertEquals(OptionalInt.of(9), cluster.node(0).lookup(key));
  }

  @Test
  void scansASubtreeInKeyOrder() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(4,
        FatBtreeCluster.smallPages(), QUARTERS);
    Map<PathKey, Integer> reference = fill(cluster, 150);
    cluster.node(3).put(PathKey.of("/d2"), 2);
    cluster.node(3).put(PathKey.of("/d2!"), 2);
    cluster.node(3).put(PathKey.of("/d2/f0001/deeper"), 2);
    reference.put(PathKey.of("/d2"), 2);
    reference.put(PathKey.of("/d2/f0001/deeper"), 2);
    List<PathKey> expected = reference.keySet().stream()
        .filter(PathKey.of("/d2")::contains).sorted().collect(Collectors.toList());
    for (FatBtreeNode node : cluster.nodes()) {
      assertEquals(expected, node.scanSubtree(PathKey.of("/d2")).stream()
          .map(IndexEntry::key).collect(Collectors.toList()), "from node " + node.nodeId());
    }
    assertEquals(List.of(file(1, 10), file(1, 11), file(1, 12)),
        cluster.node(2).scan(file(1, 10), file(1, 13)).stream().map(IndexEntry::key)
            .collect(Collectors.toList()));
  }

  @Test
  void answersAMovedSubtreeFromItsNewNode() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startInMemory(4,
        FatBtreeCluster.smallPages(), QUARTERS);
    Map<PathKey, Integer> reference = fill(cluster, 150);
    PathKey moved = PathKey.of("/d1");
    cluster.node(2).moveSubtree(moved, 3);
    for (PathKey key : reference.keySet()) {
      int leafNode = cluster.node(0).leafNodeOf(key);
      if (moved.contains(key)) {
        assertEquals(3, leafNode, key.toString());
      } else if (key.path().startsWith("/d2")) {
        assertEquals(2, leafNode, key.toString());
      }
    }
    long before = cluster.node(3).counters().forwards.get();
    for (int f = 0; f < 150; f++) {
      assertEquals(OptionalInt.of(1), cluster.node(3).lookup(file(1, f)));
    }
    assertEquals(before, cluster.node(3).counters().forwards.get(),
        "the new node answers the moved subtree itself");
    VerificationReport report = cluster.assertSound();
    cluster.assertAgreesWith(reference, List.of());
    assertEquals(0, report.surplusCopies(), report.toString());
  }

  @Test
  void keepsEveryKeyAcrossARestart() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.start(dir, 3,
        FatBtreeCluster.smallPages(true), List.of("/d1", "/d2"));
    Map<PathKey, Integer> reference = fill(cluster, 60);
    cluster.node(0).moveSubtree(PathKey.of("/d3"), 1);
    for (int i = 0; i < cluster.size(); i++) {
      cluster.restart(i);
    }
    cluster.assertSound();
    cluster.assertAgreesWith(reference, List.of());
    PathKey later = PathKey.of("/d0/after-restart");
    cluster.node(1).put(later, 5);
    reference.put(later, 5);
    cluster.assertSound();
    cluster.assertAgreesWith(reference, List.of());
  }

  @Test
  void aRestartedNodeAnswersTheSameWhileTheOthersRun() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.start(dir, 4,
        FatBtreeCluster.smallPages(true), QUARTERS);
    Map<PathKey, Integer> reference = fill(cluster, 40);
    cluster.restart(2);
    cluster.assertAgreesWith(reference, List.of());
    for (int f = 40; f < 60; f++) {
      cluster.node(2).put(file(0, f), 0);
      cluster.node(0).put(file(2, f), 2);
      reference.put(file(0, f), 0);
      reference.put(file(2, f), 2);
    }
    cluster.assertSound();
    cluster.assertAgreesWith(reference, List.of());
  }

  @Test
  void refusesToStartANodeFromACorruptedPageFile() throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.start(dir, 4,
        FatBtreeCluster.smallPages(false), QUARTERS);
    fill(cluster, 20);
    Path victim;
    try (var files = Files.list(cluster.dirOf(1))) {
      victim = files.filter(f -> f.getFileName().toString().startsWith("page-")).findFirst()
          .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(victim);
    bytes[bytes.length - 1] ^= 1;
    Files.write(victim, bytes);
    CorruptPageException e = assertThrows(CorruptPageException.class, () -> cluster.restart(1));
    assertTrue(e.getMessage().contains(victim.toString()), e.getMessage());
  }
}
