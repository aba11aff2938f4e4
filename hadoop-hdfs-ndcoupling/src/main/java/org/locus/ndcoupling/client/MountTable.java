package org.locus.ndcoupling.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Static directory partitioning (seed 004 §4.2.1): which partition of the coupled namespace
 * owns each directory subtree. An immutable value with a version; a change is a new table with
 * the next version.
 *
 * <p>Every path has exactly one owner: the partition of the longest mount point that is a
 * prefix of it (by whole path components), and {@code /} is always mounted, so a path under no
 * other mount point belongs to the root partition. A path keeps its name on its partition:
 * {@code /data/x} under {@code /data -> ns3} is {@code hdfs://ns3/data/x}. Mount points do not
 * nest (besides under {@code /}), as in Hadoop's ViewFs, so a subtree moves between partitions
 * whole.
 *
 * <p>The text form, one mount a line (what {@link #format} writes and {@link #parse} reads):
 *
 * <pre>
 *   # comments and blank lines are ignored
 *   version 3
 *   /        ns1
 *   /user    ns2
 *   /data    ns3
 * </pre>
 */
public final class MountTable {
  /** A partition name: a nameservice id as HDFS federation accepts it. */
  private static final Pattern PARTITION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");
  private static final int MAX_VERSION = 1_000_000_000;

  private final int version;
  private final TreeMap<String, String> mounts;

  private MountTable(int version, Map<String, String> mounts) {
    this.version = version;
    this.mounts = new TreeMap<>(mounts);
  }

  /**
   * The table a coupled namespace starts with before an operator changes it: {@code /} on the
   * first partition and the top-level directories {@code dirs} dealt round-robin over the
   * partitions in their order, so the usual subtrees spread over the nodes.
   *
   * @param partitions the partitions in order (a cluster's {@code dfs.nameservices})
   * @param dirs top-level directory names, without slashes
   */
  public static MountTable defaultFor(List<String> partitions, List<String> dirs) {
    if (partitions.isEmpty()) {
      throw new IllegalArgumentException("a mount table needs at least one partition");
    }
    Map<String, String> mounts = new TreeMap<>();
    mounts.put("/", partitions.get(0));
    for (int i = 0; i < dirs.size(); i++) {
      String path = checkPath("/" + dirs.get(i), "default mount table");
      mounts.put(path, checkPartition(partitions.get(i % partitions.size()),
          "default mount table"));
    }
    return check(0, mounts, "default mount table");
  }

  /**
   * Reads the text form.
   *
   * @param source where the text came from, named in every error (a file, an option)
   * @throws IllegalArgumentException naming the source, the line and what is wrong with it
   */
  public static MountTable parse(String text, String source) {
    Integer version = null;
    Map<String, String> mounts = new TreeMap<>();
    Map<String, Integer> lineOf = new TreeMap<>();
    String[] lines = text.split("\r?\n", -1);
    for (int n = 0; n < lines.length; n++) {
      String line = lines[n].strip();
      String where = source + " line " + (n + 1);
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] words = line.split("\\s+");
      if (words.length != 2) {
        throw new IllegalArgumentException(where + ": expected 'PATH PARTITION' or"
            + " 'version N', got " + words.length + " words: '" + abbreviate(line) + "'");
      }
      if (words[0].equals("version")) {
        if (version != null) {
          throw new IllegalArgumentException(where + ": a second 'version' line");
        }
        version = parseVersion(words[1], where);
        continue;
      }
      String path = checkPath(words[0], where);
      String partition = checkPartition(words[1], where);
      Integer earlier = lineOf.put(path, n + 1);
      if (earlier != null) {
        throw new IllegalArgumentException(where + ": " + path + " is mounted twice (also on"
            + " line " + earlier + ")");
      }
      mounts.put(path, partition);
    }
    if (version == null) {
      throw new IllegalArgumentException(source + ": no 'version N' line");
    }
    return check(version, mounts, source);
  }

  private static int parseVersion(String word, String where) {
    try {
      int v = Integer.parseInt(word);
      if (v >= 0 && v <= MAX_VERSION) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below with the accepted range
    }
    throw new IllegalArgumentException(where + ": version must be an integer 0.."
        + MAX_VERSION + ", got '" + abbreviate(word) + "'");
  }

  /**
   * @return {@code path} if it is a mount point Hadoop can hold: absolute, normalised, no empty,
   *     {@code .} or {@code ..} component, no {@code :} (a path must not look like a URI)
   * @throws IllegalArgumentException naming {@code where} and the rule broken
   */
  static String checkPath(String path, String where) {
    String wrong = null;
    if (!path.startsWith("/")) {
      wrong = "is not absolute (start it with /)";
    } else if (path.length() > 1 && path.endsWith("/")) {
      wrong = "ends with / (write " + path.replaceAll("/+$", "") + ")";
    } else if (path.contains("//")) {
      wrong = "has an empty component (//)";
    } else if (path.contains(":")) {
      wrong = "contains ':' (HDFS names cannot)";
    } else {
      for (String component : path.substring(1).split("/")) {
        if (component.equals(".") || component.equals("..")) {
          wrong = "has a '" + component + "' component";
          break;
        }
      }
    }
    for (int i = 0; wrong == null && i < path.length(); i++) {
      char c = path.charAt(i);
      if (Character.isISOControl(c) || Character.isWhitespace(c)) {
        wrong = "contains a control or space character at " + i;
      }
    }
    if (wrong != null) {
      throw new IllegalArgumentException(where + ": mount point '" + abbreviate(path) + "' "
          + wrong);
    }
    return path;
  }

  static String checkPartition(String partition, String where) {
    if (!PARTITION.matcher(partition).matches()) {
      throw new IllegalArgumentException(where + ": partition '" + abbreviate(partition)
          + "' is not a nameservice id (letters, digits, '-' and '_', e.g. ns2)");
    }
    return partition;
  }

  /** Refuses a table without {@code /} or with nested mount points. */
  private static MountTable check(int version, Map<String, String> mounts, String source) {
    if (!mounts.containsKey("/")) {
      throw new IllegalArgumentException(source + ": no partition for / (add a line '/ ns1':"
          + " the root partition holds every path no other mount point covers)");
    }
    for (String path : mounts.keySet()) {
      // every proper ancestor of path, by whole components ("/data-x" is not below "/data")
      for (int slash = path.lastIndexOf('/'); slash > 0;
          slash = path.lastIndexOf('/', slash - 1)) {
        String ancestor = path.substring(0, slash);
        if (mounts.containsKey(ancestor)) {
          throw new IllegalArgumentException(source + ": mount point " + path + " is inside"
              + " mount point " + ancestor + "; mount points do not nest (only / holds others)");
        }
      }
    }
    return new MountTable(version, mounts);
  }

  /** @return whether {@code path} is {@code dir} or below it, by whole components */
  static boolean isUnder(String path, String dir) {
    return dir.equals("/") || path.equals(dir) || path.startsWith(dir + "/");
  }

  private static String abbreviate(String text) {
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }

  /** @return the text form, which {@link #parse} reads back equal */
  public String format() {
    StringBuilder out = new StringBuilder("# Locus mount table: mount point, partition\n");
    out.append("version ").append(version).append('\n');
    mounts.forEach((path, partition) -> out.append(path).append(' ').append(partition)
        .append('\n'));
    return out.toString();
  }

  public int version() {
    return version;
  }

  /** @return mount point to partition, {@code /} included, in path order */
  public Map<String, String> mounts() {
    return Collections.unmodifiableMap(mounts);
  }

  /** @return the partition holding every path no other mount point covers */
  public String rootPartition() {
    return mounts.get("/");
  }

  /** @return the mount point that owns {@code path} (an absolute path without scheme) */
  public String mountPointOf(String path) {
    String best = "/";
    for (String mount : mounts.keySet()) {
      if (!mount.equals("/") && isUnder(path, mount)) {
        best = mount;
      }
    }
    return best;
  }

  /** @return the partition that owns {@code path} */
  public String partitionOf(String path) {
    return mounts.get(mountPointOf(path));
  }

  /** @return every partition the table names */
  public Set<String> partitions() {
    return Set.copyOf(mounts.values());
  }

  /**
   * @return the next version with {@code path} mounted on {@code partition}
   * @throws IllegalArgumentException if {@code path} is not a valid mount point, already
   *     mounted elsewhere, or would nest with another mount point
   */
  public MountTable withMount(String path, String partition) {
    checkPath(path, "mount");
    checkPartition(partition, "mount " + path);
    String current = mounts.get(path);
    if (current != null && !path.equals("/")) {
      throw new IllegalArgumentException(path + " is already mounted on " + current
          + (current.equals(partition) ? "" : "; remove it first"));
    }
    Map<String, String> next = new TreeMap<>(mounts);
    next.put(path, partition);
    return check(version + 1, next, "mount " + path + " " + partition);
  }

  /**
   * @return the next version without the mount point {@code path}
   * @throws IllegalArgumentException if {@code path} is {@code /} or not a mount point
   */
  public MountTable withoutMount(String path) {
    if (path.equals("/")) {
      throw new IllegalArgumentException("/ cannot be removed; point it at another partition"
          + " with 'mount add / PARTITION'");
    }
    if (!mounts.containsKey(path)) {
      throw new IllegalArgumentException(path + " is not a mount point; mount points: "
          + String.join(" ", mounts.keySet()));
    }
    Map<String, String> next = new TreeMap<>(mounts);
    next.remove(path);
    return new MountTable(version + 1, next);
  }

  /** @return this table's mounts under another version number */
  public MountTable withVersion(int newVersion) {
    parseVersion(Integer.toString(newVersion), "version");
    return new MountTable(newVersion, mounts);
  }

  /** @return the mount points below {@code dir} (not {@code dir} itself), in order */
  public List<String> mountPointsBelow(String dir) {
    List<String> below = new ArrayList<>();
    for (String mount : mounts.keySet()) {
      if (!mount.equals(dir) && isUnder(mount, dir)) {
        below.add(mount);
      }
    }
    return below;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MountTable other && other.version == version
        && other.mounts.equals(mounts);
  }

  @Override
  public int hashCode() {
    return 31 * version + mounts.hashCode();
  }

  @Override
  public String toString() {
    return "version " + version + " " + mounts;
  }
}
