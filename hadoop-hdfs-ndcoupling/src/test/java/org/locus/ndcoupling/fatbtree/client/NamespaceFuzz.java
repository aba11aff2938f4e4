package org.locus.ndcoupling.fatbtree.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.locus.ndcoupling.client.CrossPartitionRenameException;
import org.locus.ndcoupling.fatbtree.IndexEntry;

/**
 * Random creates, mkdirs, deletes and renames through one {@code locusfbt://} client in a
 * sandbox directory of two regions: {@code ROOT} on partition 1 and {@code ROOT/p2} assigned to
 * partition 2. A model of the namespace (path → length, -1 for a directory) says what every
 * operation must do, HDFS's way: a create over a file or below one fails, a non-recursive
 * delete of a non-empty directory fails, a rename into an existing directory moves below it, a
 * rename between the regions is refused and changes nothing. After each operation the
 * directories it touched are listed through a client at another entry node and compared with
 * the model; every {@value #FULL_CHECK_EVERY} operations and at the end the whole sandbox is
 * compared three ways: the file system's recursive listing, each partition's own
 * {@code hdfs://} listing of its region, and the index's entries, each against the model.
 */
final class NamespaceFuzz {
  private static final int FULL_CHECK_EVERY = 25;
  private static final long DIR = -1;
  private static final String[] NAMES = {"a", "b", "c", "d"};

  private final FbbTestCluster cluster;
  private final Random random;
  private final String root;
  private final String region2;
  /** path → length, {@link #DIR} for a directory; every path of the sandbox. */
  private final TreeMap<String, Long> model = new TreeMap<>();
  private int step;
  private String op = "";
  /** How often each kind of outcome happened, so the run can show it exercised each. */
  private final Map<String, Integer> outcomes = new TreeMap<>();

  NamespaceFuzz(FbbTestCluster cluster, Random random, String root) {
    this.cluster = cluster;
    this.random = random;
    this.root = root;
    this.region2 = root + "/p2";
  }

  void run(int operations) throws IOException {
    try (FatBtreeFileSystem fs = cluster.fbb(2); FatBtreeFileSystem checker = cluster.fbb(3);
        FileSystem ns1 = cluster.hdfs(1); FileSystem ns2 = cluster.hdfs(2);
        FatBtreePartitionResolver index = cluster.resolver(1)) {
      fs.assignSubtree(new Path(region2), 2);
      model.put(root, DIR);
      model.put(region2, DIR);
      for (step = 1; step <= operations; step++) {
        List<String> touched = operate(fs);
        for (String dir : touched) {
          assertListing(checker, dir);
        }
        if (step % FULL_CHECK_EVERY == 0 || step == operations) {
          fullCheck(checker, ns1, ns2, index);
        }
      }
    }
  }

  /** One random operation, checked against the model; the directories whose listing changed. */
  private List<String> operate(FatBtreeFileSystem fs) throws IOException {
    int dice = random.nextInt(100);
    if (dice < 30) {
      return create(fs);
    } else if (dice < 45) {
      return mkdir(fs);
    } else if (dice < 65) {
      return delete(fs);
    } else {
      return rename(fs);
    }
  }

  private List<String> create(FatBtreeFileSystem fs) throws IOException {
    String path = newPath();
    op = "create " + path;
    Long existing = model.get(path);
    if (existing != null) {
      Class<? extends IOException> expected =
          existing == DIR ? IOException.class : FileAlreadyExistsException.class;
      assertThrows(expected, () -> fs.create(new Path(path), false).close(), where());
      count("create refused: exists");
      return List.of();
    }
    if (fileAbove(path) != null) {
      assertThrows(IOException.class, () -> fs.create(new Path(path)).close(), where());
      count("create refused: below a file");
      return List.of();
    }
    int length = random.nextInt(65);
    try (OutputStream out = fs.create(new Path(path))) {
      out.write(new byte[length]);
    }
    count(model.containsKey(parentOf(path)) ? "create" : "create with new parents");
    return addWithParents(path, length);
  }

  private List<String> mkdir(FatBtreeFileSystem fs) throws IOException {
    String path = newPath();
    op = "mkdirs " + path;
    Long existing = model.get(path);
    if ((existing != null && existing != DIR) || fileAbove(path) != null) {
      assertThrows(IOException.class, () -> fs.mkdirs(new Path(path)), where());
      count("mkdirs refused: a file");
      return List.of();
    }
    assertTrue(fs.mkdirs(new Path(path)), where());
    count(existing == null ? "mkdirs" : "mkdirs of an existing directory");
    return existing == null ? addWithParents(path, DIR) : List.of();
  }

  private List<String> delete(FatBtreeFileSystem fs) throws IOException {
    boolean recursive = random.nextBoolean();
    if (random.nextInt(10) == 0) {
      String path = newPath();
      if (!model.containsKey(path) && fileAbove(path) == null) {
        op = "delete missing " + path;
        assertFalse(fs.delete(new Path(path), recursive), where());
        count("delete of a missing path");
        return List.of();
      }
    }
    String path = pick();
    if (path == null) {
      return List.of();
    }
    op = "delete " + path + (recursive ? " -r" : "");
    if (!recursive && model.get(path) == DIR && !children(path).isEmpty()) {
      assertThrows(PathIsNotEmptyDirectoryException.class,
          () -> fs.delete(new Path(path), false), where());
      count("delete refused: not empty");
      return List.of();
    }
    assertTrue(fs.delete(new Path(path), recursive), where());
    count(model.get(path) == DIR ? "delete of a directory" : "delete of a file");
    below(path).clear();
    model.remove(path);
    return List.of(parentOf(path));
  }

  private List<String> rename(FatBtreeFileSystem fs) throws IOException {
    String src = pick();
    if (src == null) {
      return List.of();
    }
    boolean across = random.nextInt(10) == 0;
    boolean srcIn2 = inRegion2(src);
    List<String> dirs = new ArrayList<>();
    for (Map.Entry<String, Long> e : model.entrySet()) {
      if (e.getValue() == DIR && inRegion2(e.getKey()) == (srcIn2 != across)
          && !within(e.getKey(), src)) {
        dirs.add(e.getKey());
      }
    }
    String dir = dirs.get(random.nextInt(dirs.size()));
    boolean intoDir = random.nextBoolean();
    String dst = intoDir ? dir : dir + "/" + NAMES[random.nextInt(NAMES.length)] + step;
    String target = intoDir ? dir + "/" + nameOf(src) : dst;
    op = "rename " + src + " " + dst;
    if (model.containsKey(target)) {
      return List.of(); // HDFS's answer to an existing target is not what this checks
    }
    if (across) {
      CrossPartitionRenameException e = assertThrows(CrossPartitionRenameException.class,
          () -> fs.rename(new Path(src), new Path(dst)), where());
      assertTrue(e.getMessage().contains("ns1") && e.getMessage().contains("ns2"),
          where() + ": " + e.getMessage());
      count("rename refused: across partitions");
      return List.of(parentOf(src), parentOf(target));
    }
    assertTrue(fs.rename(new Path(src), new Path(dst)), where());
    count((model.get(src) == DIR ? "rename of a directory" : "rename of a file")
        + (intoDir ? " into a directory" : ""));
    TreeMap<String, Long> moved = new TreeMap<>(below(src));
    moved.put(src, model.get(src));
    for (Map.Entry<String, Long> e : moved.entrySet()) {
      model.remove(e.getKey());
    }
    for (Map.Entry<String, Long> e : moved.entrySet()) {
      model.put(target + e.getKey().substring(src.length()), e.getValue());
    }
    return List.of(parentOf(src), parentOf(target));
  }

  /** The file system's listing of {@code dir} at another entry node equals the model's. */
  private void assertListing(FileSystem checker, String dir) throws IOException {
    if (!model.containsKey(dir)) {
      assertThrows(FileNotFoundException.class, () -> checker.listStatus(new Path(dir)),
          where() + ": " + dir + " is gone");
      return;
    }
    List<String> actual = new ArrayList<>();
    for (FileStatus s : checker.listStatus(new Path(dir))) {
      actual.add(describe(s.getPath().toUri().getPath(), s));
    }
    List<String> expected = new ArrayList<>();
    for (String child : children(dir)) {
      expected.add(describe(child, model.get(child)));
    }
    assertEquals(expected, actual, where() + ": listing of " + dir);
  }

  /** The whole sandbox through the file system, each partition and the index. */
  private void fullCheck(FileSystem checker, FileSystem ns1, FileSystem ns2,
      FatBtreePartitionResolver index) throws IOException {
    TreeMap<String, Long> seen = new TreeMap<>();
    walk(checker, root, seen);
    assertEquals(model, seen, where() + ": the file system's recursive listing");

    TreeMap<String, Long> onPartitions = new TreeMap<>();
    onPartitions.put(root, DIR);
    walk(ns1, root, onPartitions);
    walk(ns2, region2, onPartitions);
    onPartitions.put(region2, DIR);
    assertEquals(model, onPartitions, where() + ": ns1's listing of " + root + " and ns2's of "
        + region2);

    Map<String, Integer> expectedIndex = new TreeMap<>();
    model.keySet().forEach(p -> expectedIndex.put(p, inRegion2(p) ? 2 : 1));
    Map<String, Integer> actualIndex = new TreeMap<>();
    for (IndexEntry e : index.subtree(root)) {
      actualIndex.put(e.key().path(), e.owner());
    }
    assertEquals(expectedIndex, actualIndex, where() + ": the index under " + root);
  }

  private static void walk(FileSystem fs, String dir, Map<String, Long> into)
      throws IOException {
    into.put(dir, DIR);
    for (FileStatus s : fs.listStatus(new Path(dir))) {
      String path = s.getPath().toUri().getPath();
      if (s.isDirectory()) {
        walk(fs, path, into);
      } else {
        into.put(path, s.getLen());
      }
    }
  }

  /** A path below an existing directory: one or two new components, from few names. */
  private String newPath() {
    List<String> dirs = new ArrayList<>();
    model.forEach((p, l) -> {
      if (l == DIR) {
        dirs.add(p);
      }
    });
    String path = dirs.get(random.nextInt(dirs.size()));
    int depth = random.nextInt(4) == 0 ? 2 : 1;
    for (int i = 0; i < depth; i++) {
      path += "/" + NAMES[random.nextInt(NAMES.length)];
    }
    if (path.equals(region2)) {
      path += "/" + NAMES[0];
    }
    return path;
  }

  /** A random existing path other than the sandbox and the region roots, or null if none. */
  private String pick() {
    List<String> candidates = new ArrayList<>();
    model.forEach((p, l) -> {
      if (!p.equals(root) && !p.equals(region2)) {
        candidates.add(p);
      }
    });
    return candidates.isEmpty() ? null : candidates.get(random.nextInt(candidates.size()));
  }

  /** Adds {@code path} and its missing parents; the directories whose listing changed. */
  private List<String> addWithParents(String path, long length) {
    List<String> touched = new ArrayList<>();
    String p = path;
    while (!model.containsKey(parentOf(p))) {
      p = parentOf(p);
    }
    touched.add(parentOf(p));
    for (String a = parentOf(path); !model.containsKey(a); a = parentOf(a)) {
      model.put(a, DIR);
    }
    model.put(path, length);
    return touched;
  }

  private String fileAbove(String path) {
    for (String a = parentOf(path); a.length() > 1; a = parentOf(a)) {
      Long l = model.get(a);
      if (l != null && l != DIR) {
        return a;
      }
    }
    return null;
  }

  /** The model's paths strictly below {@code dir} (names are letters and digits). */
  private Map<String, Long> below(String dir) {
    return model.subMap(dir + "/", dir + "/\uffff");
  }

  private TreeSet<String> children(String dir) {
    TreeSet<String> children = new TreeSet<>();
    for (String p : below(dir).keySet()) {
      if (p.indexOf('/', dir.length() + 1) < 0) {
        children.add(p);
      }
    }
    return children;
  }

  private boolean inRegion2(String path) {
    return within(path, region2);
  }

  private static boolean within(String path, String dir) {
    return path.equals(dir) || path.startsWith(dir + "/");
  }

  private static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
  }

  private static String nameOf(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static String describe(String path, FileStatus s) {
    return describe(path, s.isDirectory() ? DIR : s.getLen());
  }

  private static String describe(String path, long length) {
    return path + (length == DIR ? " dir" : " " + length);
  }

  /** Counts an outcome of the operation just checked. */
  private void count(String outcome) {
    outcomes.merge(outcome, 1, Integer::sum);
  }

  /** @return how often each kind of outcome happened */
  Map<String, Integer> outcomes() {
    return outcomes;
  }

  private String where() {
    return "step " + step + " (" + op + ")";
  }
}
