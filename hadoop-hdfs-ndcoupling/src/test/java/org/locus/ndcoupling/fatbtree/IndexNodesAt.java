package org.locus.ndcoupling.fatbtree;

import java.util.function.Function;

/**
 * A test cluster of index nodes, in one JVM or over RPC, as its clients see it: an operation
 * runs at a node's current incarnation (its own, or its copy while it is off).
 */
public interface IndexNodesAt {
  /**
   * Runs {@code operation} at node {@code node}'s current incarnation, again at the next one if
   * a switch stopped it first (as a client fails over to the node's copy and back).
   */
  <T> T at(int node, Function<FatBtreeNode, T> operation);
}
