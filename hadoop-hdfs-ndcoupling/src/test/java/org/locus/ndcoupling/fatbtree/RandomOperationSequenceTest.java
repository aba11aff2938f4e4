package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property: for any sequence of puts, removes, lookups, subtree scans, subtree moves and node
 * restarts, started at random nodes of a tree with tiny pages, every answer equals a TreeMap's
 * and the verifier finds the tree sound after every step that changes its shape, with every
 * index page exactly on the nodes that hold a leaf below it.
 */
class RandomOperationSequenceTest {

  private static final int NODES = 3;
  private static final int STEPS = 400;

  @TempDir
  Path dir;

  /** Seeds; every fourth keeps its pages in directories, so restarts read page files. */
  static List<Long> seeds() {
    return RandomPaths.seeds(100, 16);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyAnswerMatchesATreeMap(long seed) throws IOException {
    Random random = new Random(seed);
    FatBtreeOptions tiny = new FatBtreeOptions(3, 3, false, 8);
    FatBtreeCluster cluster = seed % 4 == 0
        ? FatBtreeCluster.start(dir, NODES, tiny, List.of("/b", "/c"))
        : FatBtreeCluster.startInMemory(NODES, tiny, List.of("/b", "/c"));
    TreeMap<PathKey, Integer> reference = new TreeMap<>();
    for (int step = 0; step < STEPS; step++) {
      FatBtreeNode node = cluster.node(random.nextInt(NODES));
      PathKey key = RandomPaths.next(random, 4);
      int dice = random.nextInt(100);
      String what = "step " + step + " at node " + node.nodeId() + " on " + key;
      if (dice < 50) {
        int owner = random.nextInt(100);
        assertEquals(opt(reference.put(key, owner)), node.put(key, owner), what);
      } else if (dice < 70) {
        assertEquals(reference.remove(key) != null, node.remove(key), what);
      } else if (dice < 85) {
        assertEquals(opt(reference.get(key)), node.lookup(key), what);
      } else if (dice < 93) {
        Map<PathKey, Integer> expected = key.subtreeEnd() == null ? reference
            : reference.subMap(key, key.subtreeEnd());
        assertEquals(expected.entrySet().stream().map(e -> new IndexEntry(e.getKey(),
            e.getValue())).collect(Collectors.toList()), node.scanSubtree(key), what);
      } else if (dice < 98) {
        int target = random.nextInt(NODES);
        node.moveSubtree(key, target);
        if (!reference.isEmpty() && key.subtreeEnd() != null) {
          assertEquals(target, node.leafNodeOf(key), what);
        }
        cluster.assertSound();
      } else {
        cluster.restart(node.nodeId());
        cluster.assertSound();
      }
    }
    VerificationReport report = cluster.assertSound();
    assertEquals(0, report.surplusCopies(), "one client at a time leaves S_i exact: " + report);
    cluster.assertAgreesWith(reference, List.of());
  }

  private static OptionalInt opt(Integer value) {
    return value == null ? OptionalInt.empty() : OptionalInt.of(value);
  }
}
