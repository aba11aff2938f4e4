package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.locus.netns.ClusterLayout;
import org.locus.netns.PartitionHaDaemons;
import org.locus.netns.PartitionReplicas;
import org.locus.netns.PartitionedNamespace;

/**
 * Metadata replicated with the data (issue 42 item 2) on stock daemons: on three coupled nodes
 * each partition is an HA pair whose standby sits on the partition's replica node, with
 * JournalNodes, ZooKeeper and ZKFCs. One node's processes are killed with SIGKILL; its partition
 * must serve reads and writes from the copy within {@link #FAILOVER_SECONDS}, and when the node
 * returns its NameNode catches up and takes the partition back, with no file or block lost.
 * Needs root. Costs one three-node cluster start (no YARN), a node restart and the teardown.
 */
@ExtendWith(OneNetnsTestAtATime.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsPartitionFailoverTest {
  /**
   * The failover time we state: from the SIGKILL of a node's processes to a finished write into
   * its partition (ZooKeeper session timeout {@value PartitionReplicas#SESSION_TIMEOUT_MS} ms,
   * the copy's catch-up and transition, the client's retries at most 2 s apart).
   */
  static final long FAILOVER_SECONDS = 30;

  private static final File WORK =
      new File("target/test-clusters/netns-partition-failover").getAbsoluteFile();
  private static final File DIR = new File(WORK, "cluster");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final List<String> NODES = ClusterLayout.workers(3);
  private static final String LOST = "node1";
  /** Every file written, by path, with its bytes: all must survive. */
  private static final Map<String, byte[]> FILES = new LinkedHashMap<>();
  private static long classStart;

  @BeforeAll
  static void startThreeCoupledNodesWithCopies() throws Exception {
    classStart = System.nanoTime();
    NetnsResources.freshWorkDirectory(WORK, DIR);
    NetnsResources.up(DIR, "--nodes", "3", "--feature", "ndcoupling", "--metadata", "sdp",
        "--node-memory", "2g", "--disk-size", "512m");
    System.err.printf("NetnsPartitionFailoverTest: cluster up after %d s%n",
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - classStart));
  }

  @AfterAll
  static void neverLeaveAClusterBehind() {
    NetnsResources.down(DIR);
    System.err.printf("NetnsPartitionFailoverTest: %d s in all%n",
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - classStart));
  }

  @Test
  @Order(1)
  void everyPartitionIsActiveOnItsNodeWithAStandbyOnItsReplicaNode() throws Exception {
    String status = status();
    PartitionReplicas replicas = new PartitionReplicas(LAYOUT, NODES.size());
    for (String node : NODES) {
      String ns = PartitionedNamespace.nameservice(node);
      Matcher row = row(status, node);
      assertTrue(row.find(), node + " in\n" + status);
      assertEquals(ns, row.group(2), node + "'s partition");
      assertEquals(ns + ":active " + replicas.replicaOf(node) + ":standby", row.group(3),
          node + " in\n" + status);
      for (String daemon : List.of("namenode", "replica-namenode", "datanode", "zkfc",
          "replica-zkfc", "journalnode", "zookeeper")) {
        assertTrue(Pattern.compile("(^| )" + daemon + "\\(\\d+\\)").matcher(row.group(1)).find(),
            node + " runs a " + daemon + ": " + row.group(1));
      }
    }
    assertEquals("node2", replicas.replicaNode("ns1"));
    assertEquals("node1", replicas.replicaNode("ns3"), "the ring wraps around");
  }

  @Test
  @Order(2)
  void filesWrittenToEveryPartitionReadBack() throws Exception {
    for (String node : NODES) {
      String ns = PartitionedNamespace.nameservice(node);
      for (int i = 0; i < 3; i++) {
        write("hdfs://" + ns + "/before/" + i, 150_000 + i);
      }
    }
    assertAllFilesReadBack();
  }

  @Test
  @Order(3)
  void aKilledNodesPartitionServesReadsAndWritesFromItsCopyWithinTheFailoverTime()
      throws Exception {
    CliRun.inProcessExpecting(0, "cluster", "node", "stop", "--dir", DIR.getPath(), LOST,
        "--kill");
    long killed = System.nanoTime();
    String ns = PartitionedNamespace.nameservice(LOST);
    write("hdfs://" + ns + "/during/0", 200_000);
    long writeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
    assertArrayEquals(FILES.get("hdfs://" + ns + "/before/0"), read("hdfs://" + ns + "/before/0"));
    long readMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
    System.err.printf("NetnsPartitionFailoverTest: %s wrote after %d ms, read after %d ms%n",
        ns, writeMillis, readMillis);
    assertTrue(readMillis < FAILOVER_SECONDS * 1000, "the copy served " + ns + " after "
        + readMillis + " ms, over " + FAILOVER_SECONDS + " s");
    String replicaNode = new PartitionReplicas(LAYOUT, NODES.size()).replicaNode(ns);
    Matcher row = row(status(), replicaNode);
    assertTrue(row.find());
    assertTrue(row.group(3).contains(ns + ":active"), replicaNode + " now serves " + ns + ": "
        + row.group(3));
    for (String other : List.of("ns2", "ns3")) {
      write("hdfs://" + other + "/during/0", 100_000);
    }
    write("hdfs://" + ns + "/during/1", 300_000);
    assertAllFilesReadBack();
  }

  @Test
  @Order(4)
  void theReturningNodeCatchesUpAndTakesItsPartitionBack() throws Exception {
    CliRun start = CliRun.inProcessExpecting(0, "cluster", "node", "start", "--dir",
        DIR.getPath(), LOST);
    String ns = PartitionedNamespace.nameservice(LOST);
    assertTrue(start.out().contains(ns + ": handed back to " + LOST), start.out());
    System.err.println("NetnsPartitionFailoverTest: " + start.out().lines()
        .filter(l -> l.startsWith(ns + ":")).findFirst().orElse(""));
    PartitionReplicas replicas = new PartitionReplicas(LAYOUT, NODES.size());
    assertTrue(start.out().contains(replicas.replicaOf(LOST) + ": copy on " + LOST + " standby"),
        "start returns once the node's copy of another partition is a standby: " + start.out());
    assertEquals("active", PartitionHaDaemons.nameNodeState(replicas.httpAddress(ns, LOST)));
    assertEquals("standby", PartitionHaDaemons.nameNodeState(
        replicas.httpAddress(ns, replicas.replicaNode(ns))));
    String status = status();
    for (String node : NODES) {
      Matcher row = row(status, node);
      assertTrue(row.find());
      assertEquals(PartitionedNamespace.nameservice(node) + ":active "
          + replicas.replicaOf(node) + ":standby", row.group(3), "after the return:\n" + status);
    }
    // written while the node was away: now served by the node's own NameNode
    assertArrayEquals(FILES.get("hdfs://" + ns + "/during/1"), read("hdfs://" + ns
        + "/during/1"));
    write("hdfs://" + ns + "/after/0", 120_000);
    assertAllFilesReadBack();
  }

  @Test
  @Order(5)
  void noFileAndNoBlockIsLost() throws Exception {
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    for (String node : NODES) {
      String ns = PartitionedNamespace.nameservice(node);
      long expected = FILES.keySet().stream().filter(p -> p.startsWith("hdfs://" + ns + "/"))
          .count();
      try (FileSystem fs = FileSystem.newInstance(PartitionedNamespace.uri(ns), conf)) {
        long found = 0;
        // the test's own directories: the cluster keeps files of its own (the mount table)
        for (String dir : List.of("/before", "/during", "/after")) {
          if (fs.exists(new Path(dir))) {
            found += fs.getContentSummary(new Path(dir)).getFileCount();
          }
        }
        assertEquals(expected, found, ns);
      }
      // Hadoop's fsck prints to the process's standard output: run it as its own process
      String fsck = CliRun.asProcess(new File(System.getProperty("locus.home")), "fsck",
          "--conf", DIR.getPath(), "hdfs://" + ns + "/").out();
      assertTrue(fsck.contains("is HEALTHY"), ns + ": " + fsck);
      assertTrue(fsck.matches("(?s).*Minimally replicated blocks:\\s+\\d+ \\(100\\.0 %\\).*"),
          ns + ": every block has a live replica: " + fsck);
      assertTrue(fsck.matches("(?s).*Missing blocks:\\s+0\\s.*"), ns + ": " + fsck);
      assertTrue(fsck.matches("(?s).*Corrupt blocks:\\s+0\\s.*"), ns + ": " + fsck);
    }
    assertAllFilesReadBack();
  }

  @Test
  @Order(6)
  void downLeavesNothingBehind() throws Exception {
    assertFalse(NetnsResources.of(DIR).get("process").isEmpty());
    CliRun.inProcessExpecting(0, "cluster", "down", "--dir", DIR.getPath());
    Map<String, List<String>> after = NetnsResources.of(DIR);
    assertTrue(NetnsResources.none(after), "left behind: " + after);
  }

  /** @return a matcher over {@code node}'s status row: daemons, partition, NameNode roles */
  private static Matcher row(String status, String node) {
    return Pattern.compile("(?m)^\\s+" + node + "\\s+" + Pattern.quote(LAYOUT.address(node))
        + "\\s+((?:\\S+\\(\\d+\\) ?)+)\\s.*\\s(ns\\d+)\\s+(ns\\d+:\\w+ ns\\d+:\\w+)\\s*$")
        .matcher(status);
  }

  private static String status() {
    return CliRun.inProcessExpecting(0, "cluster", "status", "--dir", DIR.getPath()).out();
  }

  private static void write(String path, int size) throws Exception {
    byte[] data = new byte[size];
    new Random(path.hashCode()).nextBytes(data);
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    try (FileSystem fs = FileSystem.newInstance(java.net.URI.create(path), conf);
        OutputStream out = fs.create(new Path(path))) {
      out.write(data);
    }
    FILES.put(path, data);
  }

  private static byte[] read(String path) throws Exception {
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    try (FileSystem fs = FileSystem.newInstance(java.net.URI.create(path), conf);
        InputStream in = fs.open(new Path(path))) {
      return in.readAllBytes();
    }
  }

  private static void assertAllFilesReadBack() throws Exception {
    for (Map.Entry<String, byte[]> file : FILES.entrySet()) {
      assertArrayEquals(file.getValue(), read(file.getKey()), file.getKey());
    }
  }
}
