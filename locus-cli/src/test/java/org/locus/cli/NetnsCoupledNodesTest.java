package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.locus.netns.ClusterLayout;
import org.locus.netns.PartitionedNamespace;

/**
 * Coupled nodes on stock daemons (issue 42 item 1): {@code --feature ndcoupling --metadata sdp}
 * on three nodes runs a NameNode for its own partition and a DataNode on every node, built from
 * HDFS federation. Checked from outside: the processes in each node's namespace, each
 * NameNode's view of the DataNodes, each DataNode's block pools, a file per partition through
 * {@code hdfs://nsK}, and nothing left after {@code down}. Needs root. Costs one three-node
 * cluster start (no YARN) and its teardown.
 */
@ExtendWith(OneNetnsTestAtATime.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsCoupledNodesTest {
  private static final File WORK =
      new File("target/test-clusters/netns-coupled").getAbsoluteFile();
  private static final File DIR = new File(WORK, "cluster");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final List<String> NODES = ClusterLayout.workers(3);

  @BeforeAll
  static void startThreeCoupledNodes() throws Exception {
    NetnsResources.freshWorkDirectory(WORK, DIR);
    NetnsResources.up(DIR, "--nodes", "3", "--feature", "ndcoupling", "--metadata", "sdp",
        "--node-memory", "2g", "--disk-size", "512m");
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
      // the partition's copy (NetnsPartitionFailoverTest) adds daemons and HA roles to the row
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
}
