package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.cli.command.ClientConfiguration;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.locus.ndcoupling.fatbtree.client.FatBtreePartitionResolver;
import org.locus.netns.PartitionedNamespace;

/**
 * FBB's coupled nodes on stock daemons (issue 43 items 3 and 4): {@code --metadata fatbtree}
 * on two nodes, where each NameNode hosts its node of the Fat-Btree index. First {@code locus
 * bench metadata} at its smallest (its clients run in the nodes, exit non-zero on a byte read
 * back wrong, and the bench fails if the index and the namespace disagree); then a cluster of
 * our own, driven from the host through {@link FatBtreePartitionResolver}: files written to
 * each partition and registered are resolved from both nodes and read back, a directory lists
 * merged from both nodes' leaves, and with node2's NameNode (and so its index node) killed,
 * node1 still answers for its partition. Needs root; two 2-node cluster starts.
 */
@StartsNetnsClusters
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsFatBtreeTest {
  private static final File WORK = new File("target/test-clusters/netns-fatbtree")
      .getAbsoluteFile();
  private static final File DIR = new File(WORK, "cluster");
  private static final File BENCH = new File(WORK, "bench");
  private static final int FILES = 40;
  private static final int FILES_PER_PARTITION = 12;

  private static final Map<String, Integer> written = new TreeMap<>();

  @BeforeAll
  static void freshWork() throws Exception {
    NetnsResources.down(new File(BENCH, "cluster-2n"));
    NetnsResources.freshWorkDirectory(WORK, DIR);
  }

  @AfterAll
  static void neverLeaveAClusterBehind() {
    NetnsResources.down(DIR);
    NetnsResources.down(new File(BENCH, "cluster-2n"));
  }

  @Test
  @Order(1)
  void theBenchReadsBackEveryFileInEveryLayoutAndTheIndexAgreesWithTheNamespace()
      throws Exception {
    CliRun run = CliRun.inProcess("bench", "metadata", "--nodes", "2", "--files",
        Integer.toString(FILES), "--runs", "1", "--node-cpus", "0.5", "--no-nnthroughput",
        "--out", BENCH.getPath());
    assertEquals(0, run.exitCode(), run.toString());
    List<String> lines = Files.readAllLines(new File(BENCH, "samples.tsv").toPath());
    assertEquals(1 + 3 * 2, lines.size(), "header + 3 layouts x 2 phases:\n" + lines);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t");
      assertEquals("2", f[0], line);
      // write: every file once over both nodes; read: every node reads every file
      assertEquals(f[3].equals("write") ? FILES : 2 * FILES, Integer.parseInt(f[4]), line);
      assertTrue(Double.parseDouble(f[7]) > 0, line);
    }
    String report = Files.readString(new File(BENCH, "report.md").toPath());
    for (String row : List.of("| 2 | one NameNode |", "| 2 | SDP |", "| 2 | Fat-Btree |")) {
      assertTrue(report.contains(row), row + " in\n" + report);
    }
    // FILES files and the two nodes' directories, each node's files' leaf on its own node
    assertTrue(report.contains((FILES + 2) + " index entries = the " + (FILES + 2)
        + " files and directories of the partitions; each node's first file's leaf on node"
        + " [1, 2]"), report);
    assertTrue(new File(BENCH, "metadata-bench.svg").isFile());
    assertTrue(NetnsResources.none(NetnsResources.of(new File(BENCH, "cluster-2n"))),
        "the bench's cluster is gone");
  }

  @Test
  @Order(2)
  void filesRegisteredInTheIndexResolveFromEveryNodeAndReadBack() throws Exception {
    NetnsResources.up(DIR, "--nodes", "2", "--metadata", "fatbtree", "--node-memory", "1g",
        "--disk-size", "512m");
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    try (FatBtreePartitionResolver at1 = FatBtreePartitionResolver.connect(conf, 1);
        FatBtreePartitionResolver at2 = FatBtreePartitionResolver.connect(conf, 2)) {
      for (int p = 1; p <= 2; p++) {
        String dir = "/data/p" + p;
        (p == 1 ? at1 : at2).assignSubtree(dir, p);
        try (FileSystem fs = partition(conf, p)) {
          fs.mkdirs(new Path(dir));
          for (int i = 0; i < FILES_PER_PARTITION; i++) {
            String file = dir + "/f" + i;
            try (FSDataOutputStream out = fs.create(new Path(file), (short) 1)) {
              out.write(contents(file));
            }
            // registered through the other node's index: forwarded to the leaf's node
            (p == 1 ? at2 : at1).register(file, p);
            written.put(file, p);
          }
        }
      }
      for (FatBtreePartitionResolver resolver : List.of(at1, at2)) {
        for (Map.Entry<String, Integer> file : written.entrySet()) {
          OptionalInt owner = resolver.partitionOf(file.getKey());
          assertEquals(OptionalInt.of(file.getValue()), owner, file.getKey());
          try (FileSystem fs = partition(conf, owner.getAsInt())) {
            assertArrayEquals(contents(file.getKey()), read(fs, file.getKey()), file.getKey());
          }
        }
        assertEquals(1, resolver.leafNodeOf("/data/p1/f0"));
        assertEquals(2, resolver.leafNodeOf("/data/p2/f0"));
      }
    }
  }

  @Test
  @Order(3)
  void aDirectoryListsMergedFromBothNodesAndTheIndexAgreesWithThePartitions() throws Exception {
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    Map<String, Integer> namespace = new TreeMap<>();
    for (int p = 1; p <= 2; p++) {
      try (FileSystem fs = partition(conf, p)) {
        namespace.put("/data/p" + p, p);
        for (FileStatus status : fs.listStatus(new Path("/data/p" + p))) {
          namespace.put("/data/p" + p + "/" + status.getPath().getName(), p);
        }
      }
    }
    try (FatBtreePartitionResolver at2 = FatBtreePartitionResolver.connect(conf, 2)) {
      List<IndexEntry> top = at2.list("/data");
      assertEquals(List.of("/data/p1", "/data/p2"), top.stream().map(e -> e.key().path())
          .toList());
      assertEquals(List.of(1, 2), top.stream().map(IndexEntry::owner).toList());
      Map<String, Integer> index = new TreeMap<>();
      for (IndexEntry e : at2.subtree("/data")) {
        index.put(e.key().path(), e.owner());
      }
      assertEquals(namespace, index);
      List<String> keys = new ArrayList<>(index.keySet());
      assertEquals(keys.stream().sorted(NetnsFatBtreeTest::pathOrder).toList(), keys,
          "the scan returns keys in path order");
    }
  }

  @Test
  @Order(4)
  void withNode2sNameNodeKilledNode1StillAnswersForItsPartition() throws Exception {
    CliRun.inProcessExpecting(0, "cluster", "node", "stop", "--dir", DIR.getPath(), "node2",
        "--role", "namenode", "--kill");
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    conf.setInt("ipc.client.connect.max.retries", 1);
    try (FatBtreePartitionResolver at1 = FatBtreePartitionResolver.connect(conf, 1);
        FileSystem ns1 = partition(conf, 1)) {
      for (Map.Entry<String, Integer> file : written.entrySet()) {
        if (file.getValue() == 1) {
          assertEquals(OptionalInt.of(1), at1.partitionOf(file.getKey()), file.getKey());
          assertArrayEquals(contents(file.getKey()), read(ns1, file.getKey()), file.getKey());
        }
      }
    }
  }

  private static FileSystem partition(Configuration conf, int p) throws Exception {
    return FileSystem.newInstance(PartitionedNamespace.uri(PartitionedNamespace.nameservice(
        "node" + p)), conf);
  }

  private static byte[] contents(String path) {
    byte[] data = new byte[1024];
    new Random(path.hashCode()).nextBytes(data);
    return data;
  }

  private static byte[] read(FileSystem fs, String path) throws Exception {
    try (FSDataInputStream in = fs.open(new Path(path))) {
      return in.readAllBytes();
    }
  }

  /** Path order: component by component, which is '/' sorting below every other character. */
  private static int pathOrder(String a, String b) {
    return a.replace('/', '\0').compareTo(b.replace('/', '\0'));
  }
}
