package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.ndcoupling.fatbtree.store.PageCodec;
import org.locus.ndcoupling.fatbtree.store.PagesShipped;

/**
 * A whole node switched off: its copy on the next node of the ring answers for its keys, gear-up
 * step 1 ships exactly the pages that changed meanwhile, and the node answers again from its own
 * pages. Four nodes, leaves /, /b, /c, /d first on nodes 0 to 3; node 1 (leaf /b) goes off and
 * its copy is on node 2.
 */
class NodeCopiesTest {

  private static final int NODES = 4;
  private static final int OFF = 1;

  @TempDir
  Path dir;

  private final TreeMap<PathKey, Integer> reference = new TreeMap<>();

  private FatBtreeCluster start(Path where) throws IOException {
    FatBtreeCluster cluster = FatBtreeCluster.startWithCopies(where, NODES,
        FatBtreeCluster.smallPages(), List.of("/b", "/c", "/d"), false);
    for (int i = 0; i < 120; i++) {
      put(cluster, i % NODES, key(i), i % 7);
    }
    return cluster;
  }

  /** Keys spread over the four first leaves, most of them under /b (node 1's). */
  private static PathKey key(int i) {
    String top = i % 3 == 0 ? "/" + (char) ('a' + i % 4) : "/b";
    return PathKey.of(top + "/s" + (i % 5) + "/f" + i);
  }

  private void put(FatBtreeCluster cluster, int at, PathKey key, int owner) {
    assertEquals(opt(reference.put(key, owner)), cluster.node(at).put(key, owner),
        "put " + key + " at node " + at);
  }

  private void remove(FatBtreeCluster cluster, int at, PathKey key) {
    assertEquals(reference.remove(key) != null, cluster.node(at).remove(key),
        "remove " + key + " at node " + at);
  }

  private static OptionalInt opt(Integer value) {
    return value == null ? OptionalInt.empty() : OptionalInt.of(value);
  }

  private void checkSubtreeScan(FatBtreeCluster cluster, String dirName) {
    PathKey d = PathKey.of(dirName);
    List<IndexEntry> expected = reference.subMap(d, d.subtreeEnd()).entrySet().stream()
        .map(e -> new IndexEntry(e.getKey(), e.getValue())).collect(Collectors.toList());
    for (FatBtreeNode node : cluster.nodes()) {
      assertEquals(expected, node.scanSubtree(d), "scan of " + d + " at node " + node.nodeId());
    }
  }

  @Test
  void theCopyOfAnOffNodeAnswersLookupsUpdatesSplitsAndScansForItsKeys() throws IOException {
    FatBtreeCluster cluster = start(null);
    NodeCopies copies = cluster.copies();
    assertEquals(2, copies.holderOf(OFF));
    assertEquals(0, copies.holderOf(3), "the last node's copy is on the first");
    FatBtreeNode own = cluster.node(OFF);
    Map<Long, Page> ownAtOff = PageChanges.pagesOf(copies.ownStoreOf(OFF));
    int rootLevel = own.root().level();

    copies.nodeOff(OFF);

    assertEquals(NodeCopies.State.OFF, copies.state(OFF));
    assertThrows(IncarnationStoppedException.class, () -> own.lookup(key(1)));
    cluster.assertAgreesWith(reference, List.of());
    for (int i = 120; i < 600; i++) {
      put(cluster, i % NODES, key(i), i % 11);
    }
    for (int i = 0; i < 600; i += 5) {
      remove(cluster, (i + 1) % NODES, key(i));
    }
    checkSubtreeScan(cluster, "/b");
    checkSubtreeScan(cluster, "/b/s3");
    cluster.assertAgreesWith(reference, List.of(key(5), key(10)));
    FatBtreeNode copy = cluster.node(OFF);
    assertTrue(copy.counters().leafSplits.get() > 0, "the copy split node 1's leaves");
    assertTrue(copy.root().level() > rootLevel, "the root grew while node 1 was off");
    assertEquals(OFF, cluster.node(0).leafNodeOf(key(1)), "S_i still names node 1");
    assertTrue(copy.storeDescription().startsWith("memory store copy of node-1 on node-2"),
        copy.storeDescription());
    assertEquals(ownAtOff, PageChanges.pagesOf(copies.ownStoreOf(OFF)), "node 1's own pages untouched");
    cluster.assertSound();
  }

  @Test
  void stepOneShipsExactlyThePagesChangedWhileTheNodeWasOff() throws IOException {
    FatBtreeCluster cluster = start(null);
    NodeCopies copies = cluster.copies();
    Map<Long, Page> ownAtOff = PageChanges.pagesOf(copies.ownStoreOf(OFF));
    copies.nodeOff(OFF);
    for (int i = 120; i < 400; i++) {
      put(cluster, i % NODES, key(i), i % 11);
    }
    remove(cluster, 0, key(1));
    put(cluster, 3, key(2), 99);
    Map<Long, Page> copyNow = PageChanges.pagesOf(copies.copyOf(OFF));
    List<Long> expected = PageChanges.changed(ownAtOff, copyNow);
    long expectedBytes = expected.stream().map(copyNow::get).filter(Objects::nonNull)
        .mapToLong(p -> PageCodec.encode(p).length).sum();

    PagesShipped shipped = copies.nodeReturning(OFF);

    assertEquals(expected.size(), shipped.pages(), shipped.toString());
    assertEquals(expectedBytes, shipped.bytes(), shipped.toString());
    assertTrue(shipped.nodeFile(), "the root moved and page ids were reserved while off");
    assertEquals(PageChanges.pagesOf(copies.copyOf(OFF)), PageChanges.pagesOf(copies.ownStoreOf(OFF)));
    assertEquals(NodeCopies.State.RETURNING, copies.state(OFF));
    put(cluster, 2, key(401), 4);
    cluster.assertAgreesWith(reference, List.of(key(1)));

    FatBtreeNode back = copies.nodeBack(OFF);

    assertTrue(back.storeDescription().startsWith("memory store node-1 "),
        back.storeDescription());
    assertEquals(NodeCopies.State.ON, copies.state(OFF));
    cluster.assertAgreesWith(reference, List.of(key(1)));
    for (int i = 402; i < 500; i++) {
      put(cluster, i % NODES, key(i), i % 3);
    }
    cluster.assertAgreesWith(reference, List.of(key(1)));
    cluster.assertSound();
  }

  @Test
  void aNodeOffWhileNothingChangedIsShippedNothing() throws IOException {
    FatBtreeCluster cluster = start(null);
    NodeCopies copies = cluster.copies();
    copies.nodeOff(OFF);
    cluster.assertAgreesWith(reference, List.of(PathKey.of("/b/none")));
    checkSubtreeScan(cluster, "/b");
    PathKey existing = reference.keySet().stream().filter(k -> k.toString().startsWith("/b"))
        .findFirst().orElseThrow();
    put(cluster, 0, existing, reference.get(existing));
    assertFalse(cluster.node(2).remove(PathKey.of("/b/none")));

    PagesShipped shipped = copies.nodeReturning(OFF);

    assertEquals(new PagesShipped(0, 0, false, shipped.millis()), shipped);
    copies.nodeBack(OFF);
    cluster.assertAgreesWith(reference, List.of());
    cluster.assertSound();
  }

  @Test
  void aChangeMadeAfterStepOneReachesTheReturningNodeToo() throws IOException {
    FatBtreeCluster cluster = start(null);
    NodeCopies copies = cluster.copies();
    copies.nodeOff(OFF);
    put(cluster, 0, PathKey.of("/b/before"), 1);
    assertEquals(1, copies.nodeReturning(OFF).pages(), "one leaf changed");
    put(cluster, 0, PathKey.of("/b/after"), 2);
    assertEquals(PageChanges.pagesOf(copies.copyOf(OFF)), PageChanges.pagesOf(copies.ownStoreOf(OFF)),
        "written through to the returning node");
    copies.nodeBack(OFF);
    assertEquals(OptionalInt.of(2), cluster.node(OFF).lookup(PathKey.of("/b/after")));
    cluster.assertSound();
  }

  @Test
  void aNodeRestartedAfterItsReturnKeepsTheShippedPages() throws IOException {
    FatBtreeCluster cluster = start(dir);
    NodeCopies copies = cluster.copies();
    copies.nodeOff(OFF);
    for (int i = 120; i < 300; i++) {
      put(cluster, i % NODES, key(i), i % 5);
    }
    assertNotEquals(0, copies.nodeReturning(OFF).pages());
    copies.nodeBack(OFF);
    FatBtreeNode restarted = cluster.restart(OFF);
    for (PathKey k : reference.keySet()) {
      if (restarted.leafNodeOf(k) == OFF) {
        assertEquals(opt(reference.get(k)), restarted.lookup(k), "restarted node 1: " + k);
      }
    }
    cluster.assertAgreesWith(reference, List.of());
    cluster.assertSound();
  }

  @Test
  void aSwitchThatWouldLeaveAKeyWithoutAnAnsweringNodeIsRefused() throws IOException {
    FatBtreeCluster cluster = start(null);
    NodeCopies copies = cluster.copies();
    copies.nodeOff(OFF);
    IllegalStateException holderBusy = assertThrows(IllegalStateException.class,
        () -> copies.nodeOff(2));
    assertTrue(holderBusy.getMessage().contains("copy answering for node 1"),
        holderBusy.getMessage());
    IllegalStateException holderOff = assertThrows(IllegalStateException.class,
        () -> copies.nodeOff(0));
    assertTrue(holderOff.getMessage().contains("its copy is on node 1"), holderOff.getMessage());
    assertThrows(IllegalStateException.class, () -> copies.nodeBack(OFF));
    assertThrows(IllegalStateException.class, () -> copies.nodeReturning(3));
    copies.nodeOff(3);
    cluster.assertAgreesWith(reference, List.of());
    Map<Integer, PagesShipped> shipped = new HashMap<>();
    shipped.put(OFF, copies.nodeReturning(OFF));
    shipped.put(3, copies.nodeReturning(3));
    copies.nodeBack(3);
    copies.nodeBack(OFF);
    assertEquals(0, shipped.get(3).pages(), shipped.toString());
    cluster.assertSound();
  }
}
