package org.locus.ndcoupling.fatbtree.store;

/**
 * What gear-up step 1 sent a returning node over RPC: its own pages that its copy changed while
 * it was off, and the changes of the copy it keeps of its ring predecessor, which that node
 * logged while the copy was away with it (docs/ndcoupling.md, "Fat-Btree copies over RPC").
 *
 * @param own      the returning node's own pages, from the holder of its copy
 * @param heldCopy the copy the returning node keeps, from the node it copies
 */
public record ReturnShipped(PagesShipped own, PagesShipped heldCopy) {

  /** Pages sent in all. */
  public int pages() {
    return own.pages() + heldCopy.pages();
  }

  /** Bytes sent in all. */
  public long bytes() {
    return own.bytes() + heldCopy.bytes();
  }

  @Override
  public String toString() {
    return "own pages " + own + ", held copy " + heldCopy;
  }
}
