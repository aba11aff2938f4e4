package org.locus.ndcoupling.fatbtree;

/**
 * One page of the Fat-Btree, as stored on one node. Pages are immutable values: a change builds
 * a new page with the same id and replaces the stored copy in one step, which is what lets
 * lookups read without latches (docs/ndcoupling.md, "Fat-Btree").
 *
 * <p>Every page covers the half-open key range [{@link #lowKey()}, {@link #highKey()}) (null
 * meaning unbounded) and links to its right neighbour on the same level, as in a B-link tree: a
 * reader that finds its key at or above the high key was overtaken by a split and moves right.
 * Low keys never change (splits move the upper half right, deletions never merge), which is the
 * property the latch order and the parent search rely on.
 */
public sealed interface Page permits LeafPage, IndexPage {

  /** The page's id, unique in the whole tree and the same on every copy. */
  long id();

  /** 0 for a leaf; an index page is one above its children. */
  int level();

  /** Inclusive lower bound of the keys this page covers; null on the leftmost page of a level. */
  PathKey lowKey();

  /** Exclusive upper bound; null on the rightmost page of a level. */
  PathKey highKey();

  /** S_i: the nodes holding a copy of this page (exactly one for a leaf). */
  NodeSet copies();

  /** The right neighbour on the same level, or null on the rightmost page. */
  SideLink rightLink();

  /** Whether a key falls in [lowKey, highKey). */
  default boolean covers(PathKey key) {
    return PathKey.atOrAbove(key, lowKey()) && PathKey.below(key, highKey());
  }

  /** Whether a key is at or past the high key, i.e. the reader must follow the right link. */
  default boolean isPastHighKey(PathKey key) {
    return !PathKey.below(key, highKey());
  }
}
