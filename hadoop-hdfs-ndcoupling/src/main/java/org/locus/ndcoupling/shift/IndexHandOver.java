package org.locus.ndcoupling.shift;

import java.io.IOException;

import org.locus.ndcoupling.fatbtree.store.ReturnShipped;

/**
 * Hands a coupled node's Fat-Btree index node (inside its NameNode) to its copy on the next
 * node of the ring and back, as a gear shift that switches whole nodes needs it
 * (docs/ndcoupling.md, "Fat-Btree copies over RPC"): the index side of what
 * {@link PartitionHandOver} does for the node's partition.
 */
public interface IndexHandOver {
  /**
   * Returns once the copy of the index node on {@code host} answers for it, so that the node
   * may be switched off whole (its index server stopping with its NameNode).
   */
  void toCopy(String host) throws IOException;

  /**
   * Gear-up step 1 of the index: waits until the index server on {@code host}, switched on
   * again, answers, then ships it the pages that changed while it was off.
   *
   * @return what was shipped: its own pages, and the copy it keeps of the previous node
   */
  ReturnShipped returning(String host) throws IOException;

  /** Returns once the index node on {@code host} answers for its pages again. */
  void back(String host) throws IOException;
}
