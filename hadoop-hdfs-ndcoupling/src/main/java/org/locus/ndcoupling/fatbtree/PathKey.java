package org.locus.ndcoupling.fatbtree;

import java.util.Objects;

/**
 * A key of the Fat-Btree: an absolute HDFS path, ordered so that a directory and everything below
 * it form one contiguous key range.
 *
 * <p>Order: the path strings are compared character by character, except that {@code '/'} sorts
 * below every other character. That is the same as comparing the paths component by component
 * (a shorter component list that is a prefix of a longer one sorts first), so {@code /a} &lt;
 * {@code /a/z} &lt; {@code /a!} &lt; {@code /a0}: the subtree of {@code /a} is the half-open range
 * [{@code /a}, {@link #subtreeEnd()}). A directory's direct entries are in that range in name
 * order, interleaved with their own subtrees; listing a directory is a scan of its subtree range
 * that skips the deeper keys. Seed 004 §4.2.3 keeps hierarchical locality for exactly this reason:
 * hashing would scatter a directory over every node.
 *
 * <p>Keys are normalised on construction (no empty components, no trailing slash except for the
 * root {@code /}) so that two spellings of one path are one key.
 */
public final class PathKey implements Comparable<PathKey> {

  /** The root directory, the smallest key. */
  public static final PathKey ROOT = new PathKey("/");

  /** The character that sorts lowest after {@code '/'}: the first key past a subtree. */
  private static final char PAST_SUBTREE = '\u0000';

  private final String path;

  private PathKey(String normalised) {
    this.path = normalised;
  }

  /**
   * The key of an absolute path.
   *
   * @throws IllegalArgumentException if the path is not absolute or contains a NUL character
   */
  public static PathKey of(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("Fat-Btree keys are absolute paths, got '" + path + "'");
    }
    if (path.indexOf(PAST_SUBTREE) >= 0) {
      throw new IllegalArgumentException("a path may not contain NUL: '" + path + "'");
    }
    StringBuilder sb = new StringBuilder(path.length());
    for (String component : path.split("/")) {
      if (!component.isEmpty()) {
        sb.append('/').append(component);
      }
    }
    return sb.length() == 0 ? ROOT : new PathKey(sb.toString());
  }

  /**
   * A key read back from a page file, taken as written: it was normalised when it was made, or
   * it is a {@link #subtreeEnd()} bound, which {@link #of} would not accept.
   */
  public static PathKey fromStored(String stored) {
    return new PathKey(stored);
  }

  /** The path this key stands for. */
  public String path() {
    return path;
  }

  /**
   * The smallest key greater than every key in this path's subtree: the exclusive end of the
   * range [{@code this}, {@code subtreeEnd()}) that holds the path and all its descendants. It is
   * not a path itself, only a bound.
   */
  public PathKey subtreeEnd() {
    if (path.equals("/")) {
      return null;
    }
    return new PathKey(path + PAST_SUBTREE);
  }

  /** Whether {@code other} is this path or below it. */
  public boolean contains(PathKey other) {
    if (path.equals("/")) {
      return true;
    }
    return other.path.equals(path)
        || (other.path.startsWith(path) && other.path.charAt(path.length()) == '/');
  }

  /** How many components the path has: 0 for the root. */
  public int depth() {
    if (path.equals("/")) {
      return 0;
    }
    int depth = 0;
    for (int i = 0; i < path.length(); i++) {
      if (path.charAt(i) == '/') {
        depth++;
      }
    }
    return depth;
  }

  @Override
  public int compareTo(PathKey other) {
    String a = path;
    String b = other.path;
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return Integer.compare(rank(x), rank(y));
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  /** '/' below everything, including NUL, so that a subtree stays contiguous. */
  private static int rank(char c) {
    return c == '/' ? -1 : c;
  }

  /** Null-safe: is {@code key} below an exclusive upper bound where null means no bound? */
  public static boolean below(PathKey key, PathKey upperBound) {
    return upperBound == null || key.compareTo(upperBound) < 0;
  }

  /** Null-safe: is {@code key} at or above an inclusive lower bound where null means none? */
  public static boolean atOrAbove(PathKey key, PathKey lowerBound) {
    return lowerBound == null || key.compareTo(lowerBound) >= 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PathKey && ((PathKey) o).path.equals(path);
  }

  @Override
  public int hashCode() {
    return path.hashCode();
  }

  @Override
  public String toString() {
    return path.replace(String.valueOf(PAST_SUBTREE), "\\0");
  }
}
