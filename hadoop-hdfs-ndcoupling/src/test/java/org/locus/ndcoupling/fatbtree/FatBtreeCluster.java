package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.locus.ndcoupling.fatbtree.store.MemoryPageStore;
import org.locus.ndcoupling.fatbtree.store.PageDirectory;
import org.locus.ndcoupling.fatbtree.store.PageStore;
import org.locus.ndcoupling.fatbtree.transport.InProcessTransport;

/**
 * The shared fixture: a Fat-Btree of several in-process nodes, each with its own directory under
 * a test's temporary directory, and the checks every test ends with.
 */
final class FatBtreeCluster implements IndexNodesAt {

  /** The bound on fetched pages each node of {@link #smallPages} trees keeps. */
  static final int CACHED_PAGES = 64;

  private final Path root;
  private final FatBtreeOptions options;
  private final InProcessTransport transport;
  private final PeerTransport nodeTransport;
  private final FatBtreeNode[] nodes;
  private final MemoryPageStore[] memory;
  private MemoryPageStore[] memoryCopies;
  private NodeCopies copies;

  private FatBtreeCluster(Path root, int size, FatBtreeOptions options, boolean delay) {
    this.root = root;
    this.memory = root == null ? new MemoryPageStore[size] : null;
    this.options = options;
    int[] ids = new int[size];
    for (int i = 0; i < size; i++) {
      ids[i] = i;
    }
    this.transport = new InProcessTransport(NodeSet.of(ids));
    this.nodeTransport = delay ? new DelayingTransport(transport) : transport;
    this.nodes = new FatBtreeNode[size];
  }

  /**
   * A tree over {@code size} nodes whose first leaves start at {@code boundaries}, each node
   * keeping its pages in its own directory under {@code dir}.
   */
  static FatBtreeCluster start(Path dir, int size, FatBtreeOptions options,
      List<String> boundaries) throws IOException {
    FatBtreeCluster cluster = new FatBtreeCluster(dir, size, options, false);
    List<PathKey> keys = boundaries.stream().map(PathKey::of).collect(Collectors.toList());
    for (int i = 0; i < size; i++) {
      FatBtreeNode.format(cluster.dirOf(i), i, cluster.transport.nodes(), keys, options);
      cluster.open(i);
    }
    return cluster;
  }

  /** The same tree with pages only in memory: for tests of logic rather than durability. */
  static FatBtreeCluster startInMemory(int size, FatBtreeOptions options,
      List<String> boundaries) throws IOException {
    return startInMemory(size, options, boundaries, false);
  }

  /** In memory, and with {@code delay}, messages between nodes randomly held back. */
  static FatBtreeCluster startInMemory(int size, FatBtreeOptions options,
      List<String> boundaries, boolean delay) throws IOException {
    FatBtreeCluster cluster = new FatBtreeCluster(null, size, options, delay);
    List<PathKey> keys = boundaries.stream().map(PathKey::of).collect(Collectors.toList());
    for (int i = 0; i < size; i++) {
      cluster.memory[i] = new MemoryPageStore("node-" + i);
      FatBtreeNode.format(cluster.memory[i], i, cluster.transport.nodes(), keys);
      cluster.open(i);
    }
    return cluster;
  }

  /**
   * A tree whose every node has a copy of its pages on the next node of the ring
   * ({@link NodeCopies}), in directories under {@code dir} (the copy of node i's pages in
   * {@code node-<holder>/copy-of-node-i}), or in memory if {@code dir} is null.
   */
  static FatBtreeCluster startWithCopies(Path dir, int size, FatBtreeOptions options,
      List<String> boundaries, boolean delay) throws IOException {
    FatBtreeCluster cluster = new FatBtreeCluster(dir, size, options, delay);
    List<PathKey> keys = boundaries.stream().map(PathKey::of).collect(Collectors.toList());
    NodeSet all = cluster.transport.nodes();
    if (dir == null) {
      cluster.memoryCopies = new MemoryPageStore[size];
      for (int i = 0; i < size; i++) {
        cluster.memory[i] = new MemoryPageStore("node-" + i);
        cluster.memoryCopies[i] = new MemoryPageStore("copy of node-" + i + " on node-"
            + CopyRing.holderOf(all, i));
        FatBtreeNode.format(cluster.memory[i], i, all, keys);
        FatBtreeNode.format(cluster.memoryCopies[i], i, all, keys);
      }
    } else {
      for (int i = 0; i < size; i++) {
        FatBtreeNode.format(cluster.dirOf(i), i, all, keys, options);
        FatBtreeNode.format(cluster.copyDirOf(i), i, all, keys, options);
      }
    }
    cluster.copies = new NodeCopies(cluster.transport, cluster.nodeTransport, options,
        new NodeCopies.Stores() {
          @Override
          public PageStore openOwn(int node) throws IOException {
            return dir == null ? cluster.memory[node]
                : PageDirectory.open(cluster.dirOf(node), options.syncWrites());
          }

          @Override
          public PageStore openCopy(int node) throws IOException {
            return dir == null ? cluster.memoryCopies[node]
                : PageDirectory.open(cluster.copyDirOf(node), options.syncWrites());
          }
        });
    return cluster;
  }

  /** The switch of nodes between their own pages and their copies; null without copies. */
  NodeCopies copies() {
    return copies;
  }

  /**
   * Runs {@code operation} at node {@code i}'s current incarnation, again at the next one if
   * a switch stopped it first (as a client fails over to the node's copy and back).
   */
  @Override
  public <T> T at(int i, java.util.function.Function<FatBtreeNode, T> operation) {
    while (true) {
      try {
        return operation.apply(node(i));
      } catch (IncarnationStoppedException e) {
        Thread.yield();
      }
    }
  }

  /**
   * Small pages, so that a few thousand keys make a tree several levels high, and a cache of
   * fetched pages smaller than the upper pages a node lacks, so that copies are evicted too.
   */
  static FatBtreeOptions smallPages(boolean sync) {
    return new FatBtreeOptions(6, 4, sync, CACHED_PAGES);
  }

  /** Small pages in memory. */
  static FatBtreeOptions smallPages() {
    return smallPages(false);
  }

  Path dirOf(int node) {
    return root.resolve("node-" + node);
  }

  Path copyDirOf(int node) {
    return dirOf(CopyRing.holderOf(transport.nodes(), node)).resolve("copy-of-node-" + node);
  }

  FatBtreeNode node(int i) {
    return copies != null ? copies.serving(i) : nodes[i];
  }

  int size() {
    return nodes.length;
  }

  List<FatBtreeNode> nodes() {
    return copies != null ? copies.servingNodes() : List.of(nodes);
  }

  /**
   * Stops node {@code i} (drops its object, its latches and counters) and starts it again from
   * its directory, or from its memory store.
   */
  FatBtreeNode restart(int i) throws IOException {
    if (copies != null) {
      return copies.restart(i);
    }
    return open(i);
  }

  private FatBtreeNode open(int i) throws IOException {
    nodes[i] = memory != null ? FatBtreeNode.open(memory[i], i, nodeTransport, options)
        : FatBtreeNode.open(dirOf(i), i, nodeTransport, options);
    transport.register(nodes[i]);
    return nodes[i];
  }

  /** Runs the verifier and fails the test with its report unless the tree is sound. */
  VerificationReport assertSound() {
    VerificationReport report = copies != null ? copies.verify()
        : TreeVerifier.verify(nodes());
    assertTrue(report.isSound(), report.toString());
    return report;
  }

  /** Every node answers every reference key with its owner, and a full scan is the reference. */
  void assertAgreesWith(Map<PathKey, Integer> reference, List<PathKey> absentKeys) {
    for (FatBtreeNode node : nodes()) {
      for (Map.Entry<PathKey, Integer> e : reference.entrySet()) {
        assertEquals(OptionalInt.of(e.getValue()), node.lookup(e.getKey()),
            "node " + node.nodeId() + " looking up " + e.getKey());
      }
      for (PathKey absent : absentKeys) {
        if (!reference.containsKey(absent)) {
          assertEquals(OptionalInt.empty(), node.lookup(absent),
              "node " + node.nodeId() + " looking up removed " + absent);
        }
      }
    }
    List<IndexEntry> expected = new ArrayList<>();
    new java.util.TreeMap<>(reference).forEach((k, v) -> expected.add(new IndexEntry(k, v)));
    for (FatBtreeNode node : nodes()) {
      assertEquals(expected, node.scan(PathKey.ROOT, null), "full scan from node "
          + node.nodeId());
    }
  }
}
