package org.locus.ndcoupling.fatbtree.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.locus.ndcoupling.client.CrossPartitionRenameException;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.slf4j.LoggerFactory;

/**
 * {@code locusfbt://} over an FBB cluster of three partitions (ns1..ns3) with an index node in
 * each: every answer is compared with what the partitions' own {@code hdfs://} clients and the
 * index say. Each test works in its own top-level directory.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FatBtreeFileSystemTest {
  private static FbbTestCluster cluster;

  @BeforeAll
  static void threePartitions() throws IOException {
    cluster = FbbTestCluster.start(new File("target/test-clusters/fbb-fs"), 3);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aFileWrittenAtOneEntryNodeReadsBackByteIdenticalAtEveryOther() throws IOException {
    byte[] data = new byte[300_000];
    new Random(43).nextBytes(data);
    try (FatBtreeFileSystem at1 = cluster.fbb(1)) {
      at1.assignSubtree(new Path("/read/on2"), 2);
      for (String file : List.of("/read/f", "/read/on2/f")) {
        try (OutputStream out = at1.create(new Path(file))) {
          out.write(data);
        }
      }
    }
    for (int entry = 1; entry <= 3; entry++) {
      try (FatBtreeFileSystem fs = cluster.fbb(entry)) {
        for (String file : List.of("/read/f", "/read/on2/f")) {
          try (InputStream in = fs.open(new Path(file))) {
            assertArrayEquals(data, in.readAllBytes(), "entry node " + entry + " " + file);
          }
        }
        assertEquals(2, fs.partitionOf(new Path("/read/on2/f")));
        assertEquals(FatBtreeFileSystem.ROOT_PARTITION, fs.partitionOf(new Path("/read/f")));
        assertEquals("locusfbt://ns" + entry + "/read/on2/f",
            fs.getFileStatus(new Path("/read/on2/f")).getPath().toString());
      }
    }
    assertOnlyOn(1, "/read/f");
    assertOnlyOn(2, "/read/on2/f");
    try (FileSystem ns2 = cluster.hdfs(2); InputStream in = ns2.open(new Path("/read/on2/f"))) {
      assertArrayEquals(data, in.readAllBytes(), "the partition holds the bytes itself");
    }
  }

  @Test
  void listsADirectoryAsItsOwningPartitionsListThemInNameOrder() throws IOException {
    try (FatBtreeFileSystem fs = cluster.fbb(2)) {
      fs.assignSubtree(new Path("/list/b"), 3);
      write(fs, "/list/c", 3);
      write(fs, "/list/a", 10);
      write(fs, "/list/b/y", 7);
      write(fs, "/list/b/x/deep", 1);
      fs.mkdirs(new Path("/list/d"));
      write(fs, "/list/b0", 0); // sorts after b and before c; on ns1 like its parent

      assertOnlyOn(3, "/list/b/y");
      assertOnlyOn(3, "/list/b/x/deep");
      assertOnlyOn(1, "/list/a");
      try (FatBtreePartitionResolver index = cluster.resolver(1)) {
        assertEquals(3, index.leafNodeOf("/list/b/x/deep"),
            "what is created below an assigned directory is looked up on its partition's node");
        assertEquals(List.of("/list/a", "/list/b", "/list/b0", "/list/c", "/list/d"),
            index.list("/list").stream().map(e -> e.key().path()).toList());
      }

      List<String> expected = new ArrayList<>();
      try (FileSystem ns1 = cluster.hdfs(1); FileSystem ns3 = cluster.hdfs(3)) {
        for (FileStatus s : ns1.listStatus(new Path("/list"))) {
          if (!s.getPath().getName().equals("b")) {
            expected.add(describe(s));
          }
        }
        expected.add(describe(ns3.getFileStatus(new Path("/list/b"))));
        expected.sort(null);
        assertEquals(expected, describeAll(fs.listStatus(new Path("/list"))));
        assertEquals(describeAll(ns3.listStatus(new Path("/list/b"))),
            describeAll(fs.listStatus(new Path("/list/b"))));
      }
      FileStatus[] listing = fs.listStatus(new Path("/list"));
      assertEquals(List.of("a", "b", "b0", "c", "d"),
          Arrays.stream(listing).map(s -> s.getPath().getName()).toList(), "name order");
      assertEquals("locusfbt://ns2/list/b", listing[1].getPath().toString());
      assertEquals(0, fs.listStatus(new Path("/list/d")).length, "an empty directory");
      assertThrows(java.io.FileNotFoundException.class,
          () -> fs.listStatus(new Path("/list/none")));
      assertEquals(List.of("c 3 file"), describeAll(fs.listStatus(new Path("/list/c"))),
          "a file lists itself");
    }
  }

  @Test
  void deletesFromThePartitionsAndTheIndex() throws IOException {
    try (FatBtreeFileSystem fs = cluster.fbb(3)) {
      fs.assignSubtree(new Path("/del/d/on2"), 2);
      write(fs, "/del/d/f", 1);
      write(fs, "/del/d/on2/g", 1);
      write(fs, "/del/kept/x", 1);
      fs.assignSubtree(new Path("/del/e"), 2);
      write(fs, "/del/e/h", 1);

      assertTrue(fs.delete(new Path("/del/d/f"), false));
      assertOnlyOn(0, "/del/d/f");
      try (FatBtreePartitionResolver index = cluster.resolver(2)) {
        assertEquals(List.of("/del/d", "/del/d/on2", "/del/d/on2/g"),
            index.subtree("/del/d").stream().map(e -> e.key().path()).toList());
        assertThrows(PathIsNotEmptyDirectoryException.class,
            () -> fs.delete(new Path("/del/d"), false),
            "its only entries are on ns2, the directory on ns1 is empty");
        assertTrue(fs.exists(new Path("/del/d/on2/g")));

        assertTrue(fs.delete(new Path("/del/d"), true));
        assertEquals(List.of(), index.subtree("/del/d"));
        assertOnlyOn(0, "/del/d");
        assertFalse(fs.exists(new Path("/del/d")));
        assertFalse(fs.delete(new Path("/del/d"), true), "a missing path");

        assertTrue(fs.delete(new Path("/del/e"), true), "an assigned directory itself");
        assertEquals(List.of(), index.subtree("/del/e"));
        assertOnlyOn(0, "/del/e");
        assertEquals(List.of("kept"), Arrays.stream(fs.listStatus(new Path("/del")))
            .map(s -> s.getPath().getName()).toList());
      }
    }
  }

  @Test
  void renamesWithinAPartitionAndMovesTheIndexEntries() throws IOException {
    try (FatBtreeFileSystem fs = cluster.fbb(1)) {
      fs.assignSubtree(new Path("/mv"), 2);
      write(fs, "/mv/src/f", 5);
      write(fs, "/mv/src/sub/g", 6);
      fs.mkdirs(new Path("/mv/into"));
      try (FatBtreePartitionResolver index = cluster.resolver(3)) {
        assertTrue(fs.rename(new Path("/mv/src"), new Path("/mv/dst")));
        assertEquals(List.of(), index.subtree("/mv/src"));
        assertEquals(List.of("/mv/dst 2", "/mv/dst/f 2", "/mv/dst/sub 2", "/mv/dst/sub/g 2"),
            entries(index.subtree("/mv/dst")));
        assertOnlyOn(2, "/mv/dst/sub/g");
        assertOnlyOn(0, "/mv/src");
        assertEquals(6, fs.getFileStatus(new Path("/mv/dst/sub/g")).getLen());

        assertTrue(fs.rename(new Path("/mv/dst/f"), new Path("/mv/into")),
            "into an existing directory, as HDFS does");
        assertEquals(List.of("/mv/into 2", "/mv/into/f 2"), entries(index.subtree("/mv/into")));
        assertOnlyOn(2, "/mv/into/f");
        assertFalse(fs.rename(new Path("/mv/missing"), new Path("/mv/other")),
            "a missing source: false, as HDFS says");
        assertEquals(List.of(), index.subtree("/mv/other"));
      }
    }
  }

  @Test
  void aRenameAcrossPartitionsIsRefusedNamingBothAndChangesNothing() throws IOException {
    try (FatBtreeFileSystem fs = cluster.fbb(2)) {
      write(fs, "/xp/f", 4);
      fs.assignSubtree(new Path("/xp/on3"), 3);
      fs.assignSubtree(new Path("/xp/d/on2"), 2);
      try (FatBtreePartitionResolver index = cluster.resolver(1)) {
        List<String> before = entries(index.subtree("/xp"));
        CrossPartitionRenameException e = assertThrows(CrossPartitionRenameException.class,
            () -> fs.rename(new Path("/xp/f"), new Path("/xp/on3/f")));
        assertTrue(e.getMessage().contains("/xp/f is on partition ns1"), e.getMessage());
        assertTrue(e.getMessage().contains("/xp/on3/f on partition ns3 (index entry /xp/on3)"),
            e.getMessage());
        assertEquals("ns1", e.sourcePartition());
        assertEquals("ns3", e.destinationPartition());
        assertThrows(CrossPartitionRenameException.class,
            () -> fs.rename(new Path("/xp/f"), new Path("/xp/on3")),
            "into a directory of another partition");
        CrossPartitionRenameException below = assertThrows(
            CrossPartitionRenameException.class,
            () -> fs.rename(new Path("/xp/d"), new Path("/xp/d2")),
            "a directory with a subtree on another partition");
        assertTrue(below.getMessage().contains("/xp/d/on2 on partition ns2"),
            below.getMessage());

        assertEquals(before, entries(index.subtree("/xp")));
        assertOnlyOn(1, "/xp/f");
        assertOnlyOn(0, "/xp/on3/f");
        assertOnlyOn(0, "/xp/d2");
        assertTrue(fs.exists(new Path("/xp/d/on2")));
      }
    }
  }

  @Test
  void aCreateThatFailsLeavesNoIndexEntry() throws IOException {
    try (FatBtreeFileSystem fs = cluster.fbb(1);
        FatBtreePartitionResolver index = cluster.resolver(2)) {
      write(fs, "/fail/f", 2);
      List<String> before = entries(index.subtree("/fail"));
      assertThrows(FileAlreadyExistsException.class,
          () -> fs.create(new Path("/fail/f"), false).close());
      assertThrows(IOException.class, () -> fs.create(new Path("/fail/f/under")).close(),
          "a file below a file");
      assertThrows(IOException.class, () -> fs.mkdirs(new Path("/fail/f/dir")));
      assertEquals(before, entries(index.subtree("/fail")));
      assertEquals(2, fs.getFileStatus(new Path("/fail/f")).getLen(), "the file is unchanged");
    }
  }

  @Test
  void aFileWrittenPastTheIndexIsFoundAndListedThroughItsParent() throws IOException {
    try (FatBtreeFileSystem fs = cluster.fbb(3); FileSystem ns2 = cluster.hdfs(2)) {
      fs.assignSubtree(new Path("/past"), 2);
      write(ns2, "/past/plain", 9); // as a client that died before registering leaves it
      assertEquals(9, fs.getFileStatus(new Path("/past/plain")).getLen());
      assertEquals(List.of("plain 9 file"), describeAll(fs.listStatus(new Path("/past"))));
      assertTrue(fs.delete(new Path("/past/plain"), false));
      assertOnlyOn(0, "/past/plain");
    }
  }

  @Test
  void fileContextReachesThePartitions() throws IOException {
    FileContext context = FileContext.getFileContext(
        java.net.URI.create("locusfbt://ns2/"), cluster.conf());
    try (OutputStream out = context.create(new Path("/fc/f"),
        java.util.EnumSet.of(org.apache.hadoop.fs.CreateFlag.CREATE),
        org.apache.hadoop.fs.Options.CreateOpts.createParent())) {
      out.write(new byte[] {1, 2, 3});
    }
    assertEquals(3, context.getFileStatus(new Path("/fc/f")).getLen());
    assertOnlyOn(1, "/fc/f");
  }

  @Test
  void refusesAnEntryNodeThatIsNotAPartition() {
    IOException e = assertThrows(IOException.class, () -> FileSystem.newInstance(
        java.net.URI.create("locusfbt://host:8020/"), cluster.conf()));
    assertTrue(e.getMessage().contains("locusfbt://nsK/"), e.getMessage());
  }

  @Test
  void theShellWorksUnchanged(@TempDir java.nio.file.Path local) throws Exception {
    java.nio.file.Path file = local.resolve("f");
    Files.writeString(file, "through the index\n");
    try (FatBtreeFileSystem fs = cluster.fbb(1)) {
      fs.assignSubtree(new Path("/shell/on3"), 3);
    }
    assertEquals("", shell(0, "-mkdir", "-p", "/shell/in"));
    shell(0, "-put", file.toString(), "/shell/in/f"); // a temporary file renamed into place
    assertEquals("through the index\n", shell(0, "-cat", "/shell/in/f"));
    String listing = shell(0, "-ls", "-R", "/shell");
    for (String path : List.of("/shell/in", "/shell/in/f", "/shell/on3")) {
      assertTrue(listing.contains(path + "\n"), path + " in\n" + listing);
    }
    assertFalse(listing.contains("_COPYING_"), listing);
    shell(0, "-mv", "/shell/in/f", "/shell/g");
    String refused = shell(1, "-mv", "/shell/g", "/shell/on3/g");
    assertTrue(refused.contains("crosses partitions") && refused.contains("ns1")
        && refused.contains("ns3"), refused);
    shell(0, "-rm", "-r", "-skipTrash", "/shell");
    try (FatBtreePartitionResolver index = cluster.resolver(2)) {
      assertEquals(List.of(), index.subtree("/shell"));
    }
    assertOnlyOn(0, "/shell/g");
  }

  /**
   * Runs {@code hdfs dfs ARGS} with {@code locusfbt://ns2/} as the default file system.
   *
   * @return what it printed: standard output on success, standard error otherwise
   */
  private static String shell(int exitCode, String... args) throws Exception {
    org.apache.hadoop.conf.Configuration conf = cluster.conf();
    conf.set("fs.defaultFS", "locusfbt://ns2/");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = System.out;
    PrintStream err = System.err;
    PrintStream captured = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    if (exitCode == 0) {
      System.setOut(captured);
    } else {
      System.setErr(captured);
    }
    try {
      assertEquals(exitCode, ToolRunner.run(new FsShell(conf), args), String.join(" ", args));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** A few hundred random operations, each checked against a model of the namespace. */
  @Test
  void randomOperationsKeepTheNamespaceThePartitionsAndTheIndexInStep() throws IOException {
    NamespaceFuzz fuzz = new NamespaceFuzz(cluster, new Random(4303), "/fuzz");
    fuzz.run(300);
    LoggerFactory.getLogger(FatBtreeFileSystemTest.class).info("fuzz outcomes: {}",
        fuzz.outcomes());
    for (String kind : List.of("create", "create with new parents", "create refused: exists",
        "create refused: below a file", "mkdirs", "delete of a file", "delete of a directory",
        "delete refused: not empty", "rename of a file", "rename of a directory",
        "rename of a file into a directory", "rename refused: across partitions")) {
      assertTrue(fuzz.outcomes().getOrDefault(kind, 0) > 0,
          "the run never had a " + kind + ": " + fuzz.outcomes());
    }
  }

  static void write(FileSystem fs, String path, int bytes) throws IOException {
    try (OutputStream out = fs.create(new Path(path))) {
      out.write(new byte[bytes]);
    }
  }

  /** {@code path} exists on partition {@code owner} and on no other (0: on none). */
  static void assertOnlyOn(int owner, String path) throws IOException {
    for (int k = 1; k <= 3; k++) {
      try (FileSystem ns = cluster.hdfs(k)) {
        assertEquals(k == owner, ns.exists(new Path(path)), path + " on ns" + k);
      }
    }
  }

  static String describe(FileStatus s) {
    return s.getPath().getName() + " " + s.getLen() + (s.isDirectory() ? " dir" : " file");
  }

  static List<String> describeAll(FileStatus[] listing) {
    return Arrays.stream(listing).map(FatBtreeFileSystemTest::describe).toList();
  }

  static List<String> entries(List<IndexEntry> entries) {
    return entries.stream().map(e -> e.key().path() + " " + e.owner()).toList();
  }

  static Map<String, Integer> asMap(List<IndexEntry> entries) {
    Map<String, Integer> map = new TreeMap<>();
    entries.forEach(e -> map.put(e.key().path(), e.owner()));
    return map;
  }
}
