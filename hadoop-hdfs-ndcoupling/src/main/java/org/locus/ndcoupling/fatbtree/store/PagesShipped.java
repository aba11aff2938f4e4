package org.locus.ndcoupling.fatbtree.store;

/**
 * What gear-up step 1 sent a returning node: the pages its copy changed while it was off.
 *
 * @param pages    page files written or deleted on the returning node
 * @param bytes    their encoded size ({@link PageCodec}, the page file's bytes)
 * @param nodeFile whether the node file (root pointer, page ids reserved) changed too
 * @param millis   how long shipping took
 */
public record PagesShipped(int pages, long bytes, boolean nodeFile, long millis) {

  @Override
  public String toString() {
    return pages + " pages (" + bytes + " bytes" + (nodeFile ? ", node file" : "") + ") in "
        + millis + " ms";
  }
}
