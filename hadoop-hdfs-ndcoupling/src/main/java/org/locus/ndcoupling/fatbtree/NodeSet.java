package org.locus.ndcoupling.fatbtree;

import java.util.Arrays;
import java.util.Collection;
import java.util.stream.IntStream;

/**
 * An immutable set of node ids, kept sorted: the S_i of seed 004 §4.2.2 (the nodes that hold a
 * copy of page i). Sorted order is also the order in which the copies of a page are latched, so
 * iteration order matters and is part of the concurrency protocol (docs/ndcoupling.md).
 */
public final class NodeSet {

  private static final NodeSet EMPTY = new NodeSet(new int[0]);

  private final int[] nodes;

  private NodeSet(int[] sortedDistinct) {
    this.nodes = sortedDistinct;
  }

  public static NodeSet of(int... nodes) {
    int[] copy = IntStream.of(nodes).distinct().sorted().toArray();
    for (int n : copy) {
      if (n < 0) {
        throw new IllegalArgumentException("node ids are non-negative, got " + n);
      }
    }
    return copy.length == 0 ? EMPTY : new NodeSet(copy);
  }

  public static NodeSet of(Collection<Integer> nodes) {
    return of(nodes.stream().mapToInt(Integer::intValue).toArray());
  }

  public boolean contains(int node) {
    return Arrays.binarySearch(nodes, node) >= 0;
  }

  public boolean containsAll(NodeSet other) {
    for (int n : other.nodes) {
      if (!contains(n)) {
        return false;
      }
    }
    return true;
  }

  public NodeSet with(int node) {
    return contains(node) ? this : union(of(node));
  }

  public NodeSet without(int node) {
    return of(IntStream.of(nodes).filter(n -> n != node).toArray());
  }

  public NodeSet union(NodeSet other) {
    return of(IntStream.concat(IntStream.of(nodes), IntStream.of(other.nodes)).toArray());
  }

  public int size() {
    return nodes.length;
  }

  public boolean isEmpty() {
    return nodes.length == 0;
  }

  /** The lowest node id; for a leaf, its only node. */
  public int first() {
    if (nodes.length == 0) {
      throw new IllegalStateException("empty node set");
    }
    return nodes[0];
  }

  /** The node ids in ascending order (the latch order). */
  public int[] toArray() {
    return nodes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NodeSet && Arrays.equals(((NodeSet) o).nodes, nodes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(nodes);
  }

  @Override
  public String toString() {
    return Arrays.toString(nodes);
  }
}
