package org.locus.ndcoupling.fatbtree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An index page: child pointers sorted by low key. Index pages are replicated on S_i, every node
 * that holds a page below them (seed 004 §4.2.2, Fig. 3): the root on every node, a page just
 * above the leaves on the nodes of its leaves. All copies of a page are equal values; writers
 * replace every copy under the latches of all copies (docs/ndcoupling.md).
 */
public final class IndexPage implements Page {

  private final long id;
  private final int level;
  private final PathKey lowKey;
  private final PathKey highKey;
  private final NodeSet copies;
  private final SideLink rightLink;
  private final ChildPointer[] children;

  public IndexPage(long id, int level, PathKey lowKey, PathKey highKey, NodeSet copies,
      SideLink rightLink, List<ChildPointer> children) {
    if (level < 1) {
      throw new IllegalArgumentException("index page " + id + " at level " + level);
    }
    if (children.isEmpty()) {
      throw new IllegalArgumentException("index page " + id + " without children");
    }
    this.id = id;
    this.level = level;
    this.lowKey = lowKey;
    this.highKey = highKey;
    this.copies = copies;
    this.rightLink = rightLink;
    this.children = children.toArray(new ChildPointer[0]);
  }

  @Override
  public long id() {
    return id;
  }

  @Override
  public int level() {
    return level;
  }

  @Override
  public PathKey lowKey() {
    return lowKey;
  }

  @Override
  public PathKey highKey() {
    return highKey;
  }

  @Override
  public NodeSet copies() {
    return copies;
  }

  @Override
  public SideLink rightLink() {
    return rightLink;
  }

  public List<ChildPointer> children() {
    return List.of(children);
  }

  public int childCount() {
    return children.length;
  }

  /** The child whose range holds {@code key} (the key must be covered by this page). */
  public ChildPointer childFor(PathKey key) {
    return children[indexFor(key)];
  }

  /**
   * The child holding the keys just below {@code key}: the one whose range contains keys
   * strictly less than it and reaches up to it. Used to find a leaf's left neighbour.
   */
  public ChildPointer childBelow(PathKey key) {
    int i = children.length - 1;
    while (i > 0 && children[i].lowKey().compareTo(key) >= 0) {
      i--;
    }
    return children[i];
  }

  private int indexFor(PathKey key) {
    int lo = 1;
    int hi = children.length - 1;
    int found = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (children[mid].lowKey().compareTo(key) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** The position of the pointer to page {@code childId}, or -1. */
  public int positionOf(long childId) {
    for (int i = 0; i < children.length; i++) {
      if (children[i].pageId() == childId) {
        return i;
      }
    }
    return -1;
  }

  /** The union of the children's node sets: where a copy of this page is needed. */
  public NodeSet childNodes() {
    NodeSet all = NodeSet.of();
    for (ChildPointer c : children) {
      all = all.union(c.nodes());
    }
    return all;
  }

  /** This page with a new child pointer inserted in key order. */
  public IndexPage withChild(ChildPointer child) {
    List<ChildPointer> list = new ArrayList<>(Arrays.asList(children));
    int at = indexFor(child.lowKey()) + 1;
    list.add(at, child);
    return new IndexPage(id, level, lowKey, highKey, copies, rightLink, list);
  }

  /** This page with the pointer to {@code childId} replaced. */
  public IndexPage withChildReplaced(long childId, ChildPointer replacement) {
    int at = positionOf(childId);
    if (at < 0) {
      throw new IllegalArgumentException("index page " + id + " has no child " + childId);
    }
    List<ChildPointer> list = new ArrayList<>(Arrays.asList(children));
    list.set(at, replacement);
    return new IndexPage(id, level, lowKey, highKey, copies, rightLink, list);
  }

  /** This page with another copy set. */
  public IndexPage withCopies(NodeSet newCopies) {
    return new IndexPage(id, level, lowKey, highKey, newCopies, rightLink, children());
  }

  /** The separator a split of this page pushes up: the low key of the middle child. */
  public PathKey splitKey() {
    return children[children.length / 2].lowKey();
  }

  /** The children from {@link #splitKey()} on, as a new right page on their own nodes. */
  public IndexPage upperHalf(long newId) {
    List<ChildPointer> upper = List.of(children).subList(children.length / 2, children.length);
    IndexPage page = new IndexPage(newId, level, splitKey(), highKey, NodeSet.of(), rightLink,
        upper);
    return page.withCopies(page.childNodes());
  }

  /** The children below {@link #splitKey()}, keeping this page's copies. */
  public IndexPage lowerHalf(SideLink right) {
    List<ChildPointer> lower = List.of(children).subList(0, children.length / 2);
    return new IndexPage(id, level, lowKey, splitKey(), copies, right, lower);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof IndexPage)) {
      return false;
    }
    IndexPage p = (IndexPage) o;
    return id == p.id && level == p.level && Objects.equals(lowKey, p.lowKey)
        && Objects.equals(highKey, p.highKey) && copies.equals(p.copies)
        && Objects.equals(rightLink, p.rightLink) && Arrays.equals(children, p.children);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + Arrays.hashCode(children);
  }

  @Override
  public String toString() {
    return "index " + id + " level " + level + " on " + copies + " [" + lowKey + ", " + highKey
        + ") " + children.length + " children";
  }
}
