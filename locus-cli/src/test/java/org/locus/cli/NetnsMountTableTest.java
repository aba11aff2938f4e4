package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.cli.command.ClientConfiguration;
import org.locus.netns.ClusterLayout;

/**
 * Static directory partitioning on stock daemons (issue 42 item 3): three coupled nodes with
 * YARN, the host clients' default file system {@code locus://ns1/} and the mount table
 * {@code up} stores (/ and /user, /apps on ns1, /tmp on ns2, /data on ns3). Checked through
 * Hadoop's own shell ({@code hdfs dfs}) on the cluster's client configuration and the
 * {@code locus} commands a user runs: every entry node reaches every path on its owner, the
 * shell, fsck and a WordCount run unchanged, a mount table change is seen by the next command
 * with every NameNode still the same process, and a rename across partitions is refused naming
 * both. Needs root. Costs one three-node cluster start with YARN and its teardown.
 */
@StartsNetnsClusters
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsMountTableTest {
  private static final File WORK = new File("target/test-clusters/netns-mount").getAbsoluteFile();
  private static final File DIR = new File(WORK, "cluster");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final List<String> NODES = ClusterLayout.workers(3);
  private static final File STALE_SEGMENT = new File(LAYOUT.nodeDir("node2"),
      "journal/ns3/edits.sync/edits_0000000000000000001-0000000000000000017");
  private static final File STALE_ZOOKEEPER_LOG = new File(LAYOUT.nodeDir("node1"),
      "zookeeper/version-2/log.ff00000001"); // epoch 255: not one a new ensemble writes
  private static final String TEXT = "the mount table\nsends the path\nto the partition\n";
  private static String nameNodePids;

  @BeforeAll
  static void startThreeCoupledNodesWithYarn() throws Exception {
    NetnsResources.freshWorkDirectory(WORK, DIR);
    // what an earlier cluster in this directory would have left: a finalized edits segment of
    // an old namespace where a JournalNode's syncer keeps what it fetched from its peers (a
    // format clears current/ but not that), and ZooKeeper data
    Files.createDirectories(STALE_SEGMENT.toPath().getParent());
    Files.writeString(STALE_SEGMENT.toPath(), "edits of an earlier namespace");
    Files.createDirectories(STALE_ZOOKEEPER_LOG.toPath().getParent());
    Files.writeString(STALE_ZOOKEEPER_LOG.toPath(), "an earlier ensemble's log");
    NetnsResources.up(DIR, "--nodes", "3", "--yarn", "--feature", "ndcoupling", "--metadata",
        "sdp", "--node-memory", "2304m", "--disk-size", "512m");
    Files.writeString(new File(WORK, "words.txt").toPath(), TEXT);
    nameNodePids = nameNodePids();
  }

  @AfterAll
  static void neverLeaveAClusterBehind() {
    NetnsResources.down(DIR);
  }

  @Test
  @Order(0)
  void upClearsTheJournalAndZooKeeperDataAnEarlierClusterLeft() {
    // the NameNodes are formatted anew; a journal that kept an old segment would have it
    // replayed by them (PartitionHaDaemons.clearEarlierCluster)
    assertFalse(STALE_SEGMENT.exists(), STALE_SEGMENT + " survived up");
    assertFalse(STALE_ZOOKEEPER_LOG.exists(), STALE_ZOOKEEPER_LOG + " survived up");
    assertTrue(new File(LAYOUT.nodeDir("node2"), "journal/ns3/current/VERSION").isFile(),
        "node2's JournalNode holds ns3's freshly formatted journal");
  }

  @Test
  @Order(1)
  void theClientsDefaultIsTheCoupledNamespaceWithUpsMountTable() throws Exception {
    assertEquals("locus://ns1/", ClientConfiguration.load(DIR.getPath()).get("fs.defaultFS"));
    CliRun list = CliRun.inProcessExpecting(0, "mount", "list", "--conf", DIR.getPath());
    assertTrue(list.out().startsWith("mount table version 1\n"), list.out());
    for (String row : List.of("/ ns1", "/apps ns1", "/data ns3", "/tmp ns2", "/user ns1",
        "stored: ns1=1 ns2=1 ns3=1")) {
      assertTrue(list.out().replaceAll(" +", " ").contains(row), row + " in\n" + list.out());
    }
  }

  @Test
  @Order(2)
  void aFileWrittenThroughOneNodeIsReadThroughEveryNodeAndLivesOnItsOwner() throws Exception {
    fs("-mkdir", "-p", "/data/in");
    fs("-put", new File(WORK, "words.txt").getPath(), "/data/in/words.txt");
    List<String> entries = new java.util.ArrayList<>(List.of("ns1", "ns2", "ns3"));
    entries.add(LAYOUT.address("node2") + ":8020");
    for (String entry : entries) {
      CliRun cat = fs("-cat", "locus://" + entry + "/data/in/words.txt");
      assertEquals(TEXT, cat.out(), "entering at " + entry);
    }
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    for (String node : NODES) {
      String ns = "ns" + node.substring(4);
      try (FileSystem partition = FileSystem.newInstance(URI.create("hdfs://" + ns), conf)) {
        assertEquals(ns.equals("ns3"), partition.exists(new Path("/data/in/words.txt")),
            "/data is on ns3 only; asked " + ns);
      }
    }
  }

  @Test
  @Order(3)
  void theShellAndFsckWorkUnchangedOverEveryPartition() throws Exception {
    fs("-put", new File(WORK, "words.txt").getPath(), "/tmp/words-tmp.txt");
    fs("-put", new File(WORK, "words.txt").getPath(), "/words-root.txt");
    String tree = fs("-ls", "-R", "/").out();
    for (String path : List.of("/data/in/words.txt", "/tmp/words-tmp.txt", "/words-root.txt",
        "/user", "/apps")) {
      assertTrue(tree.contains(" " + path + "\n"), path + " in\n" + tree);
    }
    CliRun fsck = CliRun.asProcess(new File(System.getProperty("locus.home")), "fsck",
        "--conf", DIR.getPath(), "/data");
    assertEquals(0, fsck.exitCode(), fsck.toString());
    assertTrue(fsck.out().contains("is HEALTHY"), fsck.out());
    assertTrue(fsck.out().contains("Total files:\t1"), fsck.out());
    CliRun root = CliRun.asProcess(new File(System.getProperty("locus.home")), "fsck",
        "--conf", DIR.getPath(), "/");
    assertEquals(0, root.exitCode(), root.toString());
    for (String ns : List.of("ns1", "ns2", "ns3")) {
      assertTrue(root.out().contains("partition " + ns + ": hdfs://" + ns + "/"), root.out());
    }
    assertEquals(3, root.out().split("is HEALTHY", -1).length - 1, root.out());
  }

  @Test
  @Order(4)
  void aRenameAcrossPartitionsIsRefusedNamingBothAndNothingMoves() throws Exception {
    CliRun mv = shell("-mv", "/data/in/words.txt", "/tmp/moved.txt");
    assertEquals(1, mv.exitCode(), mv.toString());
    assertTrue(mv.err().contains("/data/in/words.txt is on partition ns3 (mount point /data)")
        && mv.err().contains("/tmp/moved.txt on partition ns2 (mount point /tmp)"), mv.err());
    assertEquals(TEXT, fs("-cat", "/data/in/words.txt").out());
    assertEquals(1, shell("-test", "-e", "/tmp/moved.txt").exitCode(),
        "nothing at the destination");
    fs("-mv", "/tmp/words-tmp.txt", "/tmp/renamed.txt");
    assertEquals(TEXT, fs("-cat", "/tmp/renamed.txt").out(), "within a partition: renamed");
  }

  @Test
  @Order(5)
  void aMountTableChangeIsSeenByTheNextClientWithoutARestart() throws Exception {
    CliRun add = CliRun.inProcessExpecting(0, "mount", "add", "/logs", "ns2", "--conf",
        DIR.getPath());
    assertTrue(add.out().startsWith("mount table version 2\n"), add.out());
    assertTrue(add.out().contains("stored: ns1=2 ns2=2 ns3=2"), add.out());
    // a new client, as every hdfs dfs command is: its own JVM
    for (String entry : List.of("ns1", "ns3")) {
      fsProcess("-put", new File(WORK, "words.txt").getPath(), "locus://" + entry
          + "/logs/from-" + entry);
    }
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    try (FileSystem ns2 = FileSystem.newInstance(URI.create("hdfs://ns2"), conf)) {
      assertTrue(ns2.exists(new Path("/logs/from-ns1")) && ns2.exists(new Path(
          "/logs/from-ns3")), "both writes went to ns2");
    }
    CliRun refused = CliRun.inProcess("mount", "remove", "/logs", "--conf", DIR.getPath());
    assertEquals(1, refused.exitCode(), refused.toString());
    assertTrue(refused.err().contains("/logs holds files on partition ns2"), refused.err());
    assertEquals(nameNodePids, nameNodePids(), "no NameNode restarted");
  }

  @Test
  @Order(6)
  void aWordCountRunsUnchangedAcrossPartitions() throws Exception {
    fs("-put", new File(WORK, "words.txt").getPath(), "/data/in/words-2.txt");
    CliRun run = CliRun.inProcess("job", "wordcount", "--conf", DIR.getPath(), "--input",
        "/data/in", "--output", "/user/wc");
    assertEquals(0, run.exitCode(), run.toString());
    Map<String, Long> counts = new TreeMap<>();
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      for (FileStatus part : fs.listStatus(new Path("/user/wc"))) {
        if (part.getPath().getName().startsWith("part-")) {
          try (InputStream in = fs.open(part.getPath())) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8)
                .split("\n")) {
              if (!line.isEmpty()) {
                String[] kv = line.split("\t");
                counts.put(kv[0], Long.parseLong(kv[1]));
              }
            }
          }
        }
      }
    }
    assertEquals(Map.of("the", 6L, "mount", 2L, "table", 2L, "sends", 2L, "path", 2L, "to",
        2L, "partition", 2L), counts);
    try (FileSystem ns1 = FileSystem.newInstance(URI.create("hdfs://ns1"), conf)) {
      assertTrue(ns1.exists(new Path("/user/wc/_SUCCESS")), "the output is on /user's ns1");
    }
  }

  /** @return {@code hdfs dfs ARGS} (Hadoop's FsShell, the cluster's client configuration) */
  private static CliRun shell(String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    int exit;
    try {
      exit = ToolRunner.run(new FsShell(ClientConfiguration.load(DIR.getPath())), args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    return new CliRun(exit, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  private static CliRun fs(String... args) throws Exception {
    CliRun run = shell(args);
    assertEquals(0, run.exitCode(), "hdfs dfs " + String.join(" ", args) + "\n" + run);
    return run;
  }

  /** @return {@code locus fs --conf DIR ARGS} in a JVM of its own, as a user runs it */
  private static CliRun fsProcess(String... args) throws Exception {
    String[] all = new String[args.length + 3];
    all[0] = "fs";
    all[1] = "--conf";
    all[2] = DIR.getPath();
    System.arraycopy(args, 0, all, 3, args.length);
    CliRun run = CliRun.asProcess(new File(System.getProperty("locus.home")), all);
    assertEquals(0, run.exitCode(), "locus " + String.join(" ", all) + "\n" + run);
    return run;
  }

  /** @return each node's NameNode pid, from {@code cluster status} */
  private static String nameNodePids() {
    CliRun status = CliRun.inProcessExpecting(0, "cluster", "status", "--dir", DIR.getPath());
    StringBuilder pids = new StringBuilder();
    Matcher m = Pattern.compile("namenode\\((\\d+)\\)").matcher(status.out());
    while (m.find()) {
      pids.append(m.group(1)).append(' ');
    }
    assertFalse(pids.isEmpty(), status.out());
    return pids.toString();
  }
}
