package org.locus.ndcoupling.fatbtree;

/**
 * How big pages grow, whether page writes are fsynced, and how many fetched upper pages a node
 * keeps.
 *
 * @param leafCapacity  keys per leaf before it splits (seed 004 Table 5: leaf fanout 16)
 * @param indexCapacity children per index page before it splits
 * @param syncWrites    fsync every page write (turn off only in tests that measure logic)
 * @param cachedPages   copies of index pages fetched from other nodes that a node keeps for its
 *                      next lookups ({@link FetchedPageCache}); 0 keeps none
 */
public record FatBtreeOptions(int leafCapacity, int indexCapacity, boolean syncWrites,
    int cachedPages) {

  /** The seed's fanout, durable writes, a cache of 1 024 fetched pages. */
  public static final FatBtreeOptions DEFAULT = new FatBtreeOptions(16, 16, true, 1024);

  public FatBtreeOptions {
    if (leafCapacity < 2 || indexCapacity < 3) {
      throw new IllegalArgumentException("a leaf holds at least 2 keys and an index page at"
          + " least 3 children, got " + leafCapacity + " and " + indexCapacity);
    }
    if (cachedPages < 0) {
      throw new IllegalArgumentException("a node caches 0 or more fetched pages, got "
          + cachedPages);
    }
  }

  /** These options with another bound on fetched pages kept. */
  public FatBtreeOptions withCachedPages(int pages) {
    return new FatBtreeOptions(leafCapacity, indexCapacity, syncWrites, pages);
  }
}
