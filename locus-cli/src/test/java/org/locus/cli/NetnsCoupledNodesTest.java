package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.cli.command.ClientConfiguration;
import org.locus.netns.ClusterLayout;
import org.locus.netns.PartitionHaDaemons;
import org.locus.netns.PartitionReplicas;
import org.locus.netns.PartitionedNamespace;

/**
 * Coupled nodes on stock daemons (issue 42 items 1 and 2), on one three-node cluster
 * ({@code --feature ndcoupling --metadata sdp}), checked from outside.
 *
 * <p>Coupled nodes (item 1): every node runs a NameNode for its own partition and a DataNode,
 * built from HDFS federation: the processes in each node's namespace, each NameNode's view of
 * the DataNodes, each DataNode's block pools, a file per partition through {@code hdfs://nsK}.
 *
 * <p>Gears on coupled nodes (replication 2): each partition places its blocks on its own node
 * and the next one of the ring (the partition rule); gear 0 is node1 and node3, node2 is
 * covered by node3. A full gear cycle through the {@code locus gear} commands, which address
 * every partition: files of every partition before, a shift down that switches node2 off whole
 * (its partition ns2 handed to its copy on node3 first, then every daemon of node2 stopped),
 * writes in low gear to every partition, ns2's included, a batch gear-up by all partitions at
 * once after node2's NameNode has caught up, ns2 back on node2, and every file byte-identical
 * after, the low-gear blocks on their intended node. Its files live under {@code /geared}.
 *
 * <p>Metadata replicated with the data (item 2): each partition is an HA pair whose standby sits
 * on the partition's replica node, with JournalNodes, ZooKeeper and ZKFCs. One node's processes
 * are killed with SIGKILL; its partition must serve reads and writes from the copy within
 * {@link #FAILOVER_SECONDS}, and when the node returns its NameNode catches up and takes the
 * partition back, with no file or block lost. Then nothing is left after {@code down}.
 *
 * <p>Needs root. Costs one three-node cluster start (no YARN), a node restart and the
 * teardown: the three parts used to be three classes starting the same cluster.
 */
@StartsNetnsClusters
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsCoupledNodesTest {
  private static final File WORK =
      new File("target/test-clusters/netns-coupled").getAbsoluteFile();
  private static final File DIR = new File(WORK, "cluster");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final List<String> NODES = ClusterLayout.workers(3);
  private static final List<String> PARTITIONS = List.of("ns1", "ns2", "ns3");
  /** Every file the gears half writes, by partition and path, with its bytes. */
  private static final Map<String, byte[]> WRITTEN = new LinkedHashMap<>();
  /**
   * The failover time we state: from the SIGKILL of a node's processes to a finished write into
   * its partition (ZooKeeper session timeout {@value PartitionReplicas#SESSION_TIMEOUT_MS} ms,
   * the copy's catch-up and transition, the client's retries at most 2 s apart).
   */
  static final long FAILOVER_SECONDS = 30;
  private static final String LOST = "node1";
  /** Every file the failover half writes, by path, with its bytes: all must survive. */
  private static final Map<String, byte[]> FILES = new LinkedHashMap<>();

  @BeforeAll
  static void startThreeCoupledNodes() throws Exception {
    NetnsResources.freshWorkDirectory(WORK, DIR);
    NetnsResources.up(DIR, "--nodes", "3", "--feature", "ndcoupling", "--metadata", "sdp",
        "--node-memory", "2g", "--disk-size", "512m", "--conf", "dfs.replication=2");
  }

  @AfterAll
  static void neverLeaveAClusterBehind() {
    NetnsResources.down(DIR);
  }

  @Test
  @Order(1)
  void everyNodeRunsItsPartitionsNameNodeAndADataNodeInItsOwnNamespace() throws Exception {
    CliRun status = CliRun.inProcessExpecting(0, "cluster", "status", "--dir", DIR.getPath());
    assertTrue(Pattern.compile("(?m)^\\s+master\\s+" + Pattern.quote(LAYOUT.address("master"))
        + "\\s+\\d+\\s+\\d+\\s+-\\s+-\\s+master \\(no NameNode\\)\\s*$")
        .matcher(status.out()).find(), "no daemon on the master: " + status.out());
    for (String node : NODES) {
      // the partition's copy (the failover half below) adds daemons and HA roles to the row
      Matcher row = Pattern.compile("(?m)^\\s+" + node + "\\s+"
          + Pattern.quote(LAYOUT.address(node))
          + "\\s+(?:\\S+\\(\\d+\\) )*namenode\\((\\d+)\\) datanode\\((\\d+)\\)\\s.*\\s"
          + PartitionedNamespace.nameservice(node) + "\\s+"
          + PartitionedNamespace.nameservice(node) + ":active ns\\d+:standby\\s*$")
          .matcher(status.out());
      assertTrue(row.find(), node + " in\n" + status.out());
      String netns = inode(new File("/run/netns/" + LAYOUT.namespace(node)));
      for (int group = 1; group <= 2; group++) {
        String role = group == 1 ? "namenode" : "datanode";
        String pid = row.group(group);
        String cmdline = Files.readString(new File("/proc/" + pid + "/cmdline").toPath())
            .replace('\0', ' ');
        assertTrue(cmdline.contains("-Dproc_" + role + " "), pid + ": " + cmdline);
        assertTrue(cmdline.contains(LAYOUT.nodeConfDir(node).getPath()), pid + ": " + cmdline);
        assertEquals(netns, inode(new File("/proc/" + pid + "/ns/net")),
            role + " " + pid + " runs in " + LAYOUT.namespace(node));
      }
    }
  }

  @Test
  @Order(2)
  void eachPartitionsNameNodeCountsEveryDataNodeLive() throws Exception {
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    for (String node : NODES) {
      URI partition = PartitionedNamespace.uri(PartitionedNamespace.nameservice(node));
      try (FileSystem fs = FileSystem.newInstance(partition, conf)) {
        DatanodeInfo[] live = ((DistributedFileSystem) fs)
            .getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE);
        Set<String> hosts = new TreeSet<>();
        for (DatanodeInfo dataNode : live) {
          hosts.add(dataNode.getIpAddr());
        }
        assertEquals(new TreeSet<>(NODES.stream().map(LAYOUT::address).toList()), hosts,
            partition + "'s NameNode sees every DataNode");
      }
    }
  }

  @Test
  @Order(3)
  void eachDataNodeServesTheBlockPoolOfEveryPartitionOfOneCluster() throws Exception {
    Set<String> clusterIds = new HashSet<>();
    Set<String> pools = null;
    for (String node : NODES) {
      String info = jmx(node, 9864, "Hadoop:service=DataNode,name=DataNodeInfo");
      Matcher cluster = Pattern.compile("\"ClusterId\"\\s*:\\s*\"([^\"]+)\"").matcher(info);
      assertTrue(cluster.find(), info);
      clusterIds.add(cluster.group(1));
      Set<String> served = new TreeSet<>();
      Matcher pool = Pattern.compile("BP-[0-9]+-[0-9.]+-[0-9]+").matcher(info);
      while (pool.find()) {
        served.add(pool.group());
      }
      assertEquals(3, served.size(), node + "'s DataNode serves three block pools: " + info);
      for (String other : NODES) {
        assertTrue(info.contains(LAYOUT.address(other)), node + "'s DataNode reports to "
            + other + "'s NameNode: " + info);
      }
      if (pools != null) {
        assertEquals(pools, served, node + " serves the same block pools as the others");
      }
      pools = served;
    }
    assertEquals(1, clusterIds.size(), "one cluster ID: " + clusterIds);
  }

  @Test
  @Order(4)
  void aFileWrittenToAPartitionReadsBackFromIt() throws Exception {
    byte[] data = new byte[300_000];
    new Random(42).nextBytes(data);
    File local = new File(WORK, "data.bin");
    Files.write(local.toPath(), data);
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    String blockPool = null;
    for (String ns : List.of("ns1", "ns3")) {
      String path = "hdfs://" + ns + "/in-" + ns;
      CliRun.inProcessExpecting(0, "fs", "--conf", DIR.getPath(), "-put", local.getPath(),
          path);
      try (FileSystem fs = FileSystem.newInstance(PartitionedNamespace.uri(ns), conf);
          InputStream in = fs.open(new Path(path))) {
        assertArrayEquals(data, in.readAllBytes(), path);
        String pool = ((DistributedFileSystem) fs).getClient()
            .getLocatedBlocks("/in-" + ns, 0).get(0).getBlock().getBlockPoolId();
        assertNotEquals(blockPool, pool, "each partition has its own block pool");
        blockPool = pool;
      }
    }
    try (FileSystem ns3 = FileSystem.newInstance(PartitionedNamespace.uri("ns3"), conf)) {
      assertFalse(ns3.exists(new Path("/in-ns1")), "ns1's file is not in ns3's namespace");
    }
  }

  @Test
  @Order(5)
  void eachPartitionPlacesItsBlocksOnItsOwnNodeAndTheNextOneOfTheRing() throws Exception {
    write("ns2", "/geared/placed", 100_000, 1);
    write("ns3", "/geared/placed", 100_000, 2);
    assertEquals(List.of(address("node2"), address("node3")),
        replicaHosts("ns2", "/geared/placed").stream().sorted().toList());
    assertEquals(List.of(address("node1"), address("node3")),
        replicaHosts("ns3", "/geared/placed").stream().sorted().toList(), "ns3 wraps to node1");
  }

  @Test
  @Order(6)
  void aFullGearCycleKeepsEveryFileByteIdentical() throws Exception {
    for (String ns : PARTITIONS) {
      write(ns, "/geared/before", 200_000, 10 + ns.hashCode());
    }
    CliRun status = CliRun.inProcessExpecting(0, "gear", "status", "--conf", DIR.getPath());
    for (String ns : PARTITIONS) {
      assertTrue(status.out().contains("partition " + ns), "status names " + ns + ": "
          + status.out());
    }

    CliRun down = CliRun.inProcessExpecting(0, "gear", "set", "0", "--conf", DIR.getPath());
    assertTrue(down.out().contains(address("node2") + ": off"), down.out());
    assertTrue(down.out().contains("ns2: served by its copy"), down.out());
    assertEquals("down", nameNodeState("ns2", "node2"), "node2 is off, its NameNode too");
    assertEquals("active", nameNodeState("ns2", "node3"), "ns2's copy on node3 serves it");
    for (String ns : PARTITIONS) {
      assertArrayEquals(WRITTEN.get(ns + "/geared/before"), read(ns, "/geared/before"),
          ns + "/before readable in low gear");
    }
    for (int i = 0; i < 4; i++) {
      write("ns1", "/geared/low" + i, 150_000, 100 + i);
      write("ns2", "/geared/low" + i, 150_000, 300 + i);
      write("ns3", "/geared/low" + i, 150_000, 200 + i);
    }
    CliRun low = CliRun.inProcessExpecting(0, "gear", "status", "--conf", DIR.getPath());
    assertEquals(4, pending(low.out()).get("ns1"),
        "ns1's replicas meant for node2 went to its stand-in, one entry per file: " + low.out());
    assertEquals(4, pending(low.out()).get("ns2"),
        "ns2's copy on node3 logged the replicas meant for node2: " + low.out());
    assertEquals(0, pending(low.out()).get("ns3"), "ns3's nodes (3, 1) are all on");

    CliRun up = CliRun.inProcessExpecting(0, "gear", "up", "--issue", "batch", "--transfer",
        "batch", "--conf", DIR.getPath());
    for (String ns : PARTITIONS) {
      assertTrue(Pattern.compile("(?m)^\\s+" + ns + "\\s+done: ").matcher(up.out()).find(),
          ns + " reports its own gear-up: " + up.out());
    }
    assertTrue(up.out().contains("all 3 partitions at once"), up.out());
    assertTrue(Pattern.compile("ns2 step 1 metadata\\s+\\d+ ms \\(NameNode node2 started and"
        + " caught up to edit \\d+\\)").matcher(up.out()).find(),
        "node2's NameNode caught up before the gear-up: " + up.out());
    assertTrue(up.out().contains("ns2: back on its own node"), up.out());
    assertEquals("active", nameNodeState("ns2", "node2"), "node2 took ns2 back");

    for (Map.Entry<String, byte[]> file : WRITTEN.entrySet()) {
      String ns = file.getKey().substring(0, file.getKey().indexOf('/'));
      String path = file.getKey().substring(ns.length());
      assertArrayEquals(file.getValue(), read(ns, path), file.getKey() + " after gear-up");
    }
    // Every low-gear block ends on its partition's own node and the next one, the stand-in's
    // extra replica gone. Eventually: the replica moved and the one deleted reach the
    // partition's NameNode in the DataNodes' reports, and ns2's NameNode changed since (back
    // to node2); a NameNode just made active removes excess replicas only after fresh block
    // reports, which the hand-over asks for (without them this waited hours).
    Map<String, List<String>> intended = Map.of(
        "ns1", List.of(address("node1"), address("node2")),
        "ns2", List.of(address("node2"), address("node3")));
    for (int i = 0; i < 4; i++) {
      for (String ns : List.of("ns1", "ns2")) {
        String path = "/geared/low" + i;
        long deadline = System.currentTimeMillis() + 120_000;
        List<String> hosts = replicaHosts(ns, path).stream().sorted().toList();
        while (!hosts.equals(intended.get(ns)) && System.currentTimeMillis() < deadline) {
          Thread.sleep(200);
          hosts = replicaHosts(ns, path).stream().sorted().toList();
        }
        assertEquals(intended.get(ns), hosts, ns + path + " on its own node and the next");
      }
    }
    CliRun after = CliRun.inProcessExpecting(0, "gear", "status", "--conf", DIR.getPath());
    for (String ns : PARTITIONS) {
      assertEquals(0, pending(after.out()).get(ns), ns + "'s log is retired: " + after.out());
      assertTrue(fsck(ns).contains("Status: HEALTHY"), ns + " is healthy");
    }
  }

  @Test
  @Order(7)
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
  @Order(8)
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
  @Order(9)
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
    System.err.printf("NetnsCoupledNodesTest: %s wrote after %d ms, read after %d ms%n",
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
  @Order(10)
  void theReturningNodeCatchesUpAndTakesItsPartitionBack() throws Exception {
    CliRun start = CliRun.inProcessExpecting(0, "cluster", "node", "start", "--dir",
        DIR.getPath(), LOST);
    String ns = PartitionedNamespace.nameservice(LOST);
    assertTrue(start.out().contains(ns + ": handed back to " + LOST), start.out());
    System.err.println("NetnsCoupledNodesTest: " + start.out().lines()
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
  @Order(11)
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
  @Order(12)
  void downLeavesNothingBehind() throws Exception {
    Map<String, List<String>> up = NetnsResources.of(DIR);
    assertFalse(up.get("process").isEmpty(), "a live cluster has processes: " + up);
    CliRun.inProcessExpecting(0, "cluster", "down", "--dir", DIR.getPath());
    Map<String, List<String>> after = NetnsResources.of(DIR);
    assertTrue(NetnsResources.none(after), "left behind: " + after);
  }

  private static String inode(File file) throws Exception {
    return Files.getAttribute(file.toPath(), "unix:ino").toString();
  }

  /** @return the JSON of one bean from a daemon's {@code /jmx} on {@code node} */
  private static String jmx(String node, int port, String bean) throws Exception {
    URI uri = URI.create("http://" + LAYOUT.address(node) + ":" + port + "/jmx?qry=" + bean);
    try (InputStream in = uri.toURL().openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
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
    try (FileSystem fs = FileSystem.newInstance(URI.create(path), conf);
        OutputStream out = fs.create(new Path(path))) {
      out.write(data);
    }
    FILES.put(path, data);
  }

  private static byte[] read(String path) throws Exception {
    Configuration conf = ClientConfiguration.load(DIR.getPath());
    try (FileSystem fs = FileSystem.newInstance(URI.create(path), conf);
        InputStream in = fs.open(new Path(path))) {
      return in.readAllBytes();
    }
  }

  private static void assertAllFilesReadBack() throws Exception {
    for (Map.Entry<String, byte[]> file : FILES.entrySet()) {
      assertArrayEquals(file.getValue(), read(file.getKey()), file.getKey());
    }
  }

  private static String nameNodeState(String ns, String node) {
    return PartitionHaDaemons.nameNodeState(new PartitionReplicas(LAYOUT, 3).httpAddress(ns,
        node));
  }

  private static String address(String node) {
    return LAYOUT.address(node);
  }

  private static void write(String ns, String path, int bytes, long seed) throws Exception {
    byte[] data = new byte[bytes];
    new Random(seed).nextBytes(data);
    try (FileSystem fs = FileSystem.newInstance(PartitionedNamespace.uri(ns), conf());
        var out = fs.create(new Path(path))) {
      out.write(data);
    }
    WRITTEN.put(ns + path, data);
  }

  private static byte[] read(String ns, String path) throws Exception {
    try (FileSystem fs = FileSystem.newInstance(PartitionedNamespace.uri(ns), conf());
        InputStream in = fs.open(new Path(path))) {
      return in.readAllBytes();
    }
  }

  private static List<String> replicaHosts(String ns, String path) throws Exception {
    try (FileSystem fs = FileSystem.newInstance(PartitionedNamespace.uri(ns), conf())) {
      BlockLocation[] blocks = fs.getFileBlockLocations(new Path(path), 0, Long.MAX_VALUE);
      assertEquals(1, blocks.length, path);
      List<String> hosts = new ArrayList<>();
      for (String name : blocks[0].getNames()) {
        hosts.add(name.substring(0, name.indexOf(':')));
      }
      return hosts;
    }
  }

  /** @return each partition's pending update-log entries from {@code gear status} */
  private static Map<String, Integer> pending(String status) {
    Map<String, Integer> pending = new LinkedHashMap<>();
    Matcher m = Pattern.compile("partition (ns\\d+)\\n[^\\n]*\\n\\s+update log: (\\d+) pending")
        .matcher(status);
    while (m.find()) {
      pending.put(m.group(1), Integer.parseInt(m.group(2)));
    }
    assertEquals(PARTITIONS, new ArrayList<>(pending.keySet()), status);
    return pending;
  }

  private static String fsck(String ns) throws Exception {
    Configuration conf = conf();
    FileSystem.setDefaultUri(conf, PartitionedNamespace.uri(ns));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new DFSck(conf, new PrintStream(out, true, StandardCharsets.UTF_8)).run(new String[] {"/"});
    return out.toString(StandardCharsets.UTF_8);
  }

  private static Configuration conf() throws Exception {
    return ClientConfiguration.load(DIR.getPath());
  }
}
