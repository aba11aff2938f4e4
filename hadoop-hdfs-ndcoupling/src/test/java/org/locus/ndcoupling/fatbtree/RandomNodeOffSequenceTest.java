package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.locus.ndcoupling.fatbtree.store.PageCodec;
import org.locus.ndcoupling.fatbtree.store.PageStore;
import org.locus.ndcoupling.fatbtree.store.PagesShipped;

/**
 * Property: for any sequence of puts, removes, lookups, subtree scans, subtree moves, restarts
 * and whole nodes switched off, returning (step 1) and back, started at random nodes of a
 * four-node tree with tiny pages and copies, every answer equals a TreeMap's, the verifier
 * (copies included) finds the tree sound after every switch, and step 1 ships exactly the pages
 * whose value differs between the node's own store when it went off and its copy when it
 * returns, with their bytes.
 */
class RandomNodeOffSequenceTest {

  private static final int NODES = 4;
  private static final int STEPS = 500;

  @TempDir
  Path dir;

  static List<Long> seeds() {
    return RandomPaths.seeds(200, 16);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyAnswerMatchesATreeMapWhileNodesGoOffAndReturn(long seed) throws IOException {
    Random random = new Random(seed);
    FatBtreeOptions tiny = new FatBtreeOptions(3, 3, false, 8);
    FatBtreeCluster cluster = FatBtreeCluster.startWithCopies(seed % 4 == 0 ? dir : null, NODES,
        tiny, List.of("/b", "/c", "/d"), false);
    NodeCopies copies = cluster.copies();
    TreeMap<PathKey, Integer> reference = new TreeMap<>();
    Map<Integer, Map<Long, Page>> ownAtOff = new HashMap<>();
    int switches = 0;
    int shippedPages = 0;
    for (int step = 0; step < STEPS; step++) {
      FatBtreeNode node = cluster.node(random.nextInt(NODES));
      PathKey key = RandomPaths.next(random, 5);
      int dice = random.nextInt(100);
      String what = "seed " + seed + " step " + step + " at node " + node.nodeId() + " on " + key;
      if (dice < 45) {
        int owner = random.nextInt(100);
        assertEquals(opt(reference.put(key, owner)), node.put(key, owner), what);
      } else if (dice < 60) {
        assertEquals(reference.remove(key) != null, node.remove(key), what);
      } else if (dice < 72) {
        assertEquals(opt(reference.get(key)), node.lookup(key), what);
      } else if (dice < 80) {
        Map<PathKey, Integer> expected = key.subtreeEnd() == null ? reference
            : reference.subMap(key, key.subtreeEnd());
        assertEquals(expected.entrySet().stream().map(e -> new IndexEntry(e.getKey(),
            e.getValue())).collect(Collectors.toList()), node.scanSubtree(key), what);
      } else if (dice < 84) {
        node.moveSubtree(key, random.nextInt(NODES));
        cluster.assertSound();
      } else if (dice < 86) {
        if (copies.state(node.nodeId()) == NodeCopies.State.ON) {
          cluster.restart(node.nodeId());
          cluster.assertSound();
        }
      } else {
        int n = node.nodeId();
        switch (copies.state(n)) {
          case ON:
            if (canSwitchOff(copies, n)) {
              ownAtOff.put(n, pagesOf(copies.ownStoreOf(n)));
              copies.nodeOff(n);
              switches++;
            }
            break;
          case OFF:
            shippedPages += checkStepOne(copies, n, ownAtOff.remove(n), what);
            break;
          default:
            copies.nodeBack(n);
        }
        cluster.assertSound();
      }
    }
    for (int n = 0; n < NODES; n++) {
      if (copies.state(n) == NodeCopies.State.OFF) {
        shippedPages += checkStepOne(copies, n, ownAtOff.remove(n), "seed " + seed + " end");
      }
      if (copies.state(n) == NodeCopies.State.RETURNING) {
        copies.nodeBack(n);
      }
    }
    VerificationReport report = cluster.assertSound();
    assertEquals(0, report.surplusCopies(), "one client at a time leaves S_i exact: " + report);
    cluster.assertAgreesWith(reference, List.of());
    assertTrue(switches > 3 && shippedPages > 0,
        "seed " + seed + " switched " + switches + " nodes off and shipped " + shippedPages
            + " pages");
  }

  private static boolean canSwitchOff(NodeCopies copies, int n) {
    if (copies.state(copies.holderOf(n)) != NodeCopies.State.ON) {
      return false;
    }
    for (int p = 0; p < NODES; p++) {
      if (p != n && copies.holderOf(p) == n && copies.state(p) != NodeCopies.State.ON) {
        return false;
      }
    }
    return true;
  }

  private static int checkStepOne(NodeCopies copies, int n, Map<Long, Page> atOff,
      String what) {
    Map<Long, Page> now = pagesOf(copies.copyOf(n));
    List<Long> changed = new ArrayList<>();
    now.forEach((id, page) -> {
      if (!page.equals(atOff.get(id))) {
        changed.add(id);
      }
    });
    atOff.keySet().stream().filter(id -> !now.containsKey(id)).forEach(changed::add);
    long bytes = changed.stream().map(now::get).filter(Objects::nonNull)
        .mapToLong(p -> PageCodec.encode(p).length).sum();
    PagesShipped shipped = copies.nodeReturning(n);
    assertEquals(changed.size(), shipped.pages(), what + ": pages shipped to node " + n);
    assertEquals(bytes, shipped.bytes(), what + ": bytes shipped to node " + n);
    assertEquals(now, pagesOf(copies.ownStoreOf(n)), what + ": node " + n + " after step 1");
    return shipped.pages();
  }

  private static Map<Long, Page> pagesOf(PageStore store) {
    return store.all().stream().collect(Collectors.toMap(Page::id, p -> p));
  }

  private static OptionalInt opt(Integer value) {
    return value == null ? OptionalInt.empty() : OptionalInt.of(value);
  }
}
