package org.locus.ndcoupling.fatbtree;

/**
 * How big pages grow and whether page writes are fsynced.
 *
 * @param leafCapacity  keys per leaf before it splits (seed 004 Table 5: leaf fanout 16)
 * @param indexCapacity children per index page before it splits
 * @param syncWrites    fsync every page write (turn off only in tests that measure logic)
 */
public record FatBtreeOptions(int leafCapacity, int indexCapacity, boolean syncWrites) {

  /** The seed's fanout, durable writes. */
  public static final FatBtreeOptions DEFAULT = new FatBtreeOptions(16, 16, true);

  public FatBtreeOptions {
    if (leafCapacity < 2 || indexCapacity < 3) {
      throw new IllegalArgumentException("a leaf holds at least 2 keys and an index page at"
          + " least 3 children, got " + leafCapacity + " and " + indexCapacity);
    }
  }
}
