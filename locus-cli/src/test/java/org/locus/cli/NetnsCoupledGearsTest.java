package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.tools.DFSck;
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
 * Gears over coupled nodes (issue 42 item 4) on three netns nodes with {@code --metadata sdp
 * --feature ndcoupling} and replication 2: every partition's NameNode runs the gears for its
 * own block pool and places its blocks on its own node and the next one of the ring (the
 * partition rule); gear 0 is node1 and node3, node2 is covered by node3. A full gear cycle
 * through the {@code locus gear} commands, which address every partition: files of every
 * partition before, a shift down that switches node2 off whole (its partition ns2 handed to its
 * copy on node3 first, then every daemon of node2 stopped), writes in low gear to every
 * partition, ns2's included, a batch gear-up by all partitions at once after node2's NameNode
 * has caught up, ns2 back on node2, and every file byte-identical after, the low-gear blocks on
 * their intended node. Needs root. Costs one three-node cluster start (about
 * 25 s) and its teardown; about a minute and a half in all here.
 */
@ExtendWith(OneNetnsTestAtATime.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsCoupledGearsTest {
  private static final File WORK = new File("target/test-clusters/netns-coupled-gears")
      .getAbsoluteFile();
  private static final File DIR = new File(WORK, "cluster");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final List<String> PARTITIONS = List.of("ns1", "ns2", "ns3");
  private static final Map<String, byte[]> WRITTEN = new LinkedHashMap<>();

  @BeforeAll
  static void startThreeCoupledNodesWithGears() throws Exception {
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
  void eachPartitionPlacesItsBlocksOnItsOwnNodeAndTheNextOneOfTheRing() throws Exception {
    write("ns2", "/placed", 100_000, 1);
    write("ns3", "/placed", 100_000, 2);
    assertEquals(List.of(address("node2"), address("node3")),
        replicaHosts("ns2", "/placed").stream().sorted().toList());
    assertEquals(List.of(address("node1"), address("node3")),
        replicaHosts("ns3", "/placed").stream().sorted().toList(), "ns3 wraps to node1");
  }

  @Test
  @Order(2)
  void aFullGearCycleKeepsEveryFileByteIdentical() throws Exception {
    for (String ns : PARTITIONS) {
      write(ns, "/before", 200_000, 10 + ns.hashCode());
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
      assertArrayEquals(WRITTEN.get(ns + "/before"), read(ns, "/before"),
          ns + "/before readable in low gear");
    }
    for (int i = 0; i < 4; i++) {
      write("ns1", "/low" + i, 150_000, 100 + i);
      write("ns2", "/low" + i, 150_000, 300 + i);
      write("ns3", "/low" + i, 150_000, 200 + i);
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
        String path = "/low" + i;
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
  @Order(3)
  void downLeavesNothingBehind() throws Exception {
    CliRun.inProcessExpecting(0, "cluster", "down", "--dir", DIR.getPath());
    Map<String, List<String>> after = NetnsResources.of(DIR);
    assertTrue(NetnsResources.none(after), "left behind: " + after);
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
