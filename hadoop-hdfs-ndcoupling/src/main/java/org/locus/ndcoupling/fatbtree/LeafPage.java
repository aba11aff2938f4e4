package org.locus.ndcoupling.fatbtree;

import java.util.Arrays;
import java.util.Objects;

/**
 * A leaf: sorted path keys with their owners (a node id or a partition id, the value the index
 * maps a path to). A leaf lives on exactly one node (seed 004 §4.2.2: the often-changing pages
 * are not replicated), so its {@link #copies()} has one element.
 *
 * <p>Deletion is lazy: removing a key never merges leaves, an empty leaf keeps its range.
 */
public final class LeafPage implements Page {

  private final long id;
  private final PathKey lowKey;
  private final PathKey highKey;
  private final NodeSet copies;
  private final SideLink rightLink;
  private final PathKey[] keys;
  private final int[] owners;

  public LeafPage(long id, PathKey lowKey, PathKey highKey, int node, SideLink rightLink,
      PathKey[] keys, int[] owners) {
    if (keys.length != owners.length) {
      throw new IllegalArgumentException("leaf " + id + ": " + keys.length + " keys but "
          + owners.length + " owners");
    }
    this.id = id;
    this.lowKey = lowKey;
    this.highKey = highKey;
    this.copies = NodeSet.of(node);
    this.rightLink = rightLink;
    this.keys = keys;
    this.owners = owners;
  }

  /** An empty leaf on {@code node} covering [low, high). */
  public static LeafPage empty(long id, PathKey low, PathKey high, int node, SideLink link) {
    return new LeafPage(id, low, high, node, link, new PathKey[0], new int[0]);
  }

  @Override
  public long id() {
    return id;
  }

  @Override
  public int level() {
    return 0;
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

  /** The one node this leaf lives on. */
  public int node() {
    return copies.first();
  }

  @Override
  public SideLink rightLink() {
    return rightLink;
  }

  public int size() {
    return keys.length;
  }

  public PathKey keyAt(int i) {
    return keys[i];
  }

  public int ownerAt(int i) {
    return owners[i];
  }

  /** Binary search as {@link Arrays#binarySearch}: index, or -(insertion point) - 1. */
  public int search(PathKey key) {
    return Arrays.binarySearch(keys, key);
  }

  /** This leaf with {@code key} mapped to {@code owner} (added or replaced). */
  public LeafPage withPut(PathKey key, int owner) {
    int i = search(key);
    if (i >= 0) {
      int[] o = owners.clone();
      o[i] = owner;
      return new LeafPage(id, lowKey, highKey, node(), rightLink, keys, o);
    }
    int at = -i - 1;
    PathKey[] k = new PathKey[keys.length + 1];
    int[] o = new int[owners.length + 1];
    System.arraycopy(keys, 0, k, 0, at);
    System.arraycopy(owners, 0, o, 0, at);
    k[at] = key;
    o[at] = owner;
    System.arraycopy(keys, at, k, at + 1, keys.length - at);
    System.arraycopy(owners, at, o, at + 1, owners.length - at);
    return new LeafPage(id, lowKey, highKey, node(), rightLink, k, o);
  }

  /** This leaf without {@code key} (which must be present). */
  public LeafPage withRemoved(PathKey key) {
    int i = search(key);
    if (i < 0) {
      throw new IllegalArgumentException("leaf " + id + " has no key " + key);
    }
    PathKey[] k = new PathKey[keys.length - 1];
    int[] o = new int[owners.length - 1];
    System.arraycopy(keys, 0, k, 0, i);
    System.arraycopy(owners, 0, o, 0, i);
    System.arraycopy(keys, i + 1, k, i, keys.length - i - 1);
    System.arraycopy(owners, i + 1, o, i, owners.length - i - 1);
    return new LeafPage(id, lowKey, highKey, node(), rightLink, k, o);
  }

  /** The keys at and above {@code separator} as a new right leaf on the same node. */
  public LeafPage upperHalf(long newId, PathKey separator) {
    int from = firstAtOrAbove(separator);
    return new LeafPage(newId, separator, highKey, node(), rightLink,
        Arrays.copyOfRange(keys, from, keys.length),
        Arrays.copyOfRange(owners, from, owners.length));
  }

  /** The keys below {@code separator}, now ending there and linking to {@code right}. */
  public LeafPage lowerHalf(PathKey separator, SideLink right) {
    int to = firstAtOrAbove(separator);
    return new LeafPage(id, lowKey, separator, node(), right, Arrays.copyOf(keys, to),
        Arrays.copyOf(owners, to));
  }

  /** The same leaf living on another node (a migration keeps id, range and keys). */
  public LeafPage onNode(int newNode) {
    return new LeafPage(id, lowKey, highKey, newNode, rightLink, keys, owners);
  }

  /** The same leaf with another right link. */
  public LeafPage withRightLink(SideLink link) {
    return new LeafPage(id, lowKey, highKey, node(), link, keys, owners);
  }

  private int firstAtOrAbove(PathKey key) {
    int i = search(key);
    return i >= 0 ? i : -i - 1;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LeafPage)) {
      return false;
    }
    LeafPage p = (LeafPage) o;
    return id == p.id && Objects.equals(lowKey, p.lowKey) && Objects.equals(highKey, p.highKey)
        && copies.equals(p.copies) && Objects.equals(rightLink, p.rightLink)
        && Arrays.equals(keys, p.keys) && Arrays.equals(owners, p.owners);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + Arrays.hashCode(keys);
  }

  @Override
  public String toString() {
    return "leaf " + id + " on " + node() + " [" + lowKey + ", " + highKey + ") " + keys.length
        + " keys";
  }
}
