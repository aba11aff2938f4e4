package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;
import org.locus.netns.HostCommand;
import org.locus.netns.NodeCgroup;
import org.locus.netns.ResourceLedger;

/**
 * A two-node netns cluster (HDFS only) with 10 Mbit/s links and 20 MB/s device reads: status,
 * exec, the measured link rate and cold-read rate, the daemons' classpath, stopping and
 * starting one daemon, the nodes' CPU limit, a REPLICATED (MorphStore) volume per node, and
 * {@code down} after the supervisor was killed with SIGKILL, checked
 * against a listing of every resource kind on the host. Needs root. Costs one cluster start
 * (about 30 s on an idle 2-core machine) plus about 15 s of transfers.
 */
@StartsNetnsClusters
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsClusterTest {
  private static final File DIR = new File("target/test-clusters/netns").getAbsoluteFile();
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  /** Bounds of the measured rates: ±15 % of what was asked. */
  private static final double TOLERANCE = 0.15;

  @BeforeAll
  static void startCluster() throws Exception {
    assumeTrue(NetnsResources.root(), "netns clusters need root");
    CliRun.inProcess("cluster", "down", "--dir", DIR.getPath());
    FileUtil.fullyDelete(DIR);
    Map<String, List<String>> before = NetnsResources.of(DIR);
    assertTrue(NetnsResources.none(before), "nothing of this cluster before up: " + before);
    NetnsResources.up(DIR, "--nodes", "2", "--link", "10mbit", "--disk-read", "20MB/s",
        "--volumes", "DISK,SSD", "--ssd-read", "30MB/s", "--node-memory", "1g",
        "--node-cpus", "1.5", "--replicated-volume", "NVDIMM",
        "--disk-size", "512m");
  }

  /**
   * @return {@code NAME=CONTENT} lines of the node's files of those names in every cgroup
   *     hierarchy the cluster uses (v1: blkio, memory, cpu; v2: one), where they exist
   */
  private static String nodeGroupFiles(String node, String... names) throws Exception {
    StringBuilder text = new StringBuilder();
    for (File group : NodeCgroup.forHost(LAYOUT, new ResourceLedger(new File(DIR,
        "no-such-ledger"))).clusterGroups()) {
      for (String name : names) {
        File file = new File(new File(group, node), name);
        if (file.isFile()) {
          for (String line : Files.readAllLines(file.toPath())) {
            text.append(name).append('=').append(line.trim()).append('\n');
          }
        }
      }
    }
    return text.toString();
  }

  @AfterAll
  static void neverLeaveAClusterBehind() {
    NetnsResources.down(DIR);
  }

  @Test
  @Order(1)
  void statusShowsEveryNodeWithItsAddressDaemonsAndLimits() {
    CliRun run = CliRun.inProcess("cluster", "status", "--dir", DIR.getPath());
    assertEquals(0, run.exitCode(), run.toString());
    assertTrue(run.out().contains("link             10mbit"), run.out());
    assertTrue(run.out().contains("read 20MB/s"), run.out());
    assertTrue(run.out().contains("node CPUs        1.5 "), run.out());
    assertTrue(Pattern.compile("(?m)^\\s+master\\s+" + Pattern.quote(LAYOUT.address("master"))
        + "\\s+namenode\\(\\d+\\)")
        .matcher(run.out()).find(), run.out());
    for (int k = 1; k <= 2; k++) {
      assertTrue(Pattern.compile("(?m)^\\s+node" + k + "\\s+"
          + Pattern.quote(LAYOUT.address("node" + k))
          + "\\s+datanode\\(\\d+\\)\\s+\\d+\\s+\\d+\\s+vol0=7:\\d+").matcher(run.out()).find(),
          run.out());
    }
  }

  @Test
  @Order(2)
  void execRunsTheCommandInTheNodesNamespace() {
    CliRun run = CliRun.inProcess("cluster", "exec", "--dir", DIR.getPath(), "node2", "--",
        "ip", "-o", "-4", "addr", "show", "dev", "eth0");
    assertEquals(0, run.exitCode(), run.toString());
    assertTrue(run.out().contains(LAYOUT.address("node2") + "/24"), run.out());
  }

  @Test
  @Order(3)
  void linkBetweenTwoNodesCarries10Mbit() throws Exception {
    File served = new File(LAYOUT.nodeDir("node2"), "tmp/served");
    assertTrue(served.mkdirs() || served.isDirectory());
    long bytes = 6_000_000;
    try (RandomAccessFile file = new RandomAccessFile(new File(served, "blob"), "rw")) {
      file.setLength(bytes);
    }
    DaemonLauncher launcher = new DaemonLauncher(LAYOUT,
        NodeCgroup.forHost(LAYOUT, new ResourceLedger(LAYOUT.ledgerFile())));
    Process server = new ProcessBuilder(launcher.inNode("node2", List.of("python3", "-m",
        "http.server", "8000", "--bind", LAYOUT.address("node2"), "--directory", served.getPath())))
        .redirectErrorStream(true).redirectOutput(new File(served.getParentFile(), "http.out"))
        .start();
    try {
      // Bounded wait for the server: a tiny request until it answers.
      CliRun probe = null;
      for (int attempt = 0; attempt < 100; attempt++) {
        probe = CliRun.inProcess("cluster", "exec", "--dir", DIR.getPath(), "node1", "--",
            "curl", "-sf", "-o", "/dev/null", "-r", "0-0", "http://" + LAYOUT.address("node2") + ":8000/blob");
        if (probe.exitCode() == 0) {
          break;
        }
        Thread.sleep(200);
      }
      assertEquals(0, probe.exitCode(), "the node2 server never answered: " + probe);
      CliRun run = CliRun.inProcess("cluster", "exec", "--dir", DIR.getPath(), "node1", "--",
          "curl", "-sf", "-o", "/dev/null", "-w", "%{size_download} %{time_total}",
          "http://" + LAYOUT.address("node2") + ":8000/blob");
      assertEquals(0, run.exitCode(), run.toString());
      String[] fields = run.out().trim().split(" ");
      assertEquals(bytes, Long.parseLong(fields[0]), run.out());
      double mbit = bytes * 8 / Double.parseDouble(fields[1]) / 1e6;
      System.out.printf("measured: node2 -> node1 %.2f Mbit/s at --link 10mbit%n", mbit);
      assertTrue(Math.abs(mbit - 10) <= 10 * TOLERANCE,
          "node2 -> node1 at " + String.format("%.2f", mbit) + " Mbit/s, asked 10");
    } finally {
      server.destroyForcibly().waitFor();
    }
  }

  @Test
  @Order(4)
  void coldReadOnAThrottledNodeRunsAt20MBps() {
    String file = new File(LAYOUT.mountPoint("node1", "vol0"), "cold").getPath();
    // A direct write leaves nothing in the page cache: the read that follows is cold.
    CliRun write = CliRun.inProcess("cluster", "exec", "--dir", DIR.getPath(), "node1", "--",
        "dd", "if=/dev/zero", "of=" + file, "bs=1M", "count=80", "oflag=direct");
    assertEquals(0, write.exitCode(), write.toString());
    CliRun read = CliRun.inProcess("cluster", "exec", "--dir", DIR.getPath(), "node1", "--",
        "dd", "if=" + file, "of=/dev/null", "bs=1M");
    assertEquals(0, read.exitCode(), read.toString());
    Matcher m = Pattern.compile("(\\d+) bytes .* copied, ([\\d.]+) s").matcher(read.out());
    assertTrue(m.find(), read.out());
    double mbps = Long.parseLong(m.group(1)) / Double.parseDouble(m.group(2)) / 1e6;
    System.out.printf("measured: cold read %.1f MB/s at --disk-read 20MB/s%n", mbps);
    assertTrue(Math.abs(mbps - 20) <= 20 * TOLERANCE,
        "cold read at " + String.format("%.1f", mbps) + " MB/s, asked 20");
  }

  /**
   * An SSD volume's device gets {@code --ssd-read}, the DISK volume's {@code --disk-read}: the
   * node's own cgroup says so ({@code blkio.throttle.read_bps_device} on v1, {@code io.max} on
   * v2), per device number as the cluster's state lists them.
   */
  @Test
  @Order(5)
  void anSsdVolumesDeviceIsThrottledAtTheSsdRate() throws Exception {
    Properties state = new ClusterDirectory(DIR).readState();
    Map<String, String> device = new java.util.HashMap<>();
    for (String disk : state.getProperty("node1.disks", "").split(" ")) {
      String[] kv = disk.split("=");
      device.put(kv[0], kv[1]);
    }
    String limits = nodeGroupFiles("node1", "blkio.throttle.read_bps_device", "io.max");
    assertTrue(Pattern.compile("=" + Pattern.quote(device.get("vol0"))
        + "\\s+(rbps=)?20000000\\b").matcher(limits).find(), "DISK volume " + device + ":\n"
        + limits);
    assertTrue(Pattern.compile("=" + Pattern.quote(device.get("vol1"))
        + "\\s+(rbps=)?30000000\\b").matcher(limits).find(), "SSD volume " + device + ":\n"
        + limits);
  }

  /**
   * {@code --node-cpus 1.5}: node1's cgroup holds the quota (150 ms per 100 ms period), and
   * three busy loops run for 2 s inside the node use at most 1.5 cores of that time together.
   * That bound is what the kernel guarantees whatever else the host runs; without the limit a
   * quiet 2-core host gives the loops about 2 cores and the bound fails.
   */
  @Test
  @Order(6)
  void threeBusyLoopsInANodeOfOneAndAHalfCoresUseAtMostOneAndAHalfCores() throws Exception {
    String limits = nodeGroupFiles("node1", "cpu.max", "cpu.cfs_quota_us", "cpu.cfs_period_us");
    assertTrue(limits.contains("cpu.max=150000 100000")
        || limits.contains("cpu.cfs_quota_us=150000\ncpu.cfs_period_us=100000"),
        "node1's CPU limit files: " + limits);
    CliRun run = CliRun.inProcess("cluster", "exec", "--dir", DIR.getPath(), "node1", "--",
        "sh", "-c", "start=$(date +%s%N); for i in 1 2 3; do timeout 2 sh -c 'while :; do :;"
        + " done' & done; wait; echo wall $(( $(date +%s%N) - start )); times");
    assertEquals(0, run.exitCode(), run.toString());
    Matcher wall = Pattern.compile("wall (\\d+)").matcher(run.out());
    Matcher children = Pattern.compile("(?m)^(\\d+)m([\\d.]+)s (\\d+)m([\\d.]+)s\\s*$")
        .matcher(run.out());
    assertTrue(wall.find() && children.find() && children.find(), run.out());
    double wallSeconds = Long.parseLong(wall.group(1)) / 1e9;
    double cpuSeconds = Integer.parseInt(children.group(1)) * 60
        + Double.parseDouble(children.group(2)) + Integer.parseInt(children.group(3)) * 60
        + Double.parseDouble(children.group(4));
    System.out.printf("measured: 3 busy loops in node1 (--node-cpus 1.5): %.2f CPU s in %.2f s"
        + " (%.2f cores)%n", cpuSeconds, wallSeconds, cpuSeconds / wallSeconds);
    // Slack: one period's quota, for slices handed out before the group ran dry.
    assertTrue(cpuSeconds <= 1.5 * wallSeconds + 0.15, String.format(
        "%.2f CPU s in %.2f s is more than 1.5 cores%n%s", cpuSeconds, wallSeconds, run.out()));
  }

  /**
   * {@code --replicated-volume NVDIMM}: each DataNode has an NVDIMM volume that is a
   * {@code morphstore-fuse} mount with {@code copies=2} over the node's two mirror disks
   * (throttled like its other disks); a file under an ALL_NVDIMM path has every replica there,
   * and MorphStore holds two copies of each block and checksum file.
   */
  @Test
  @Order(7)
  void aReplicatedVolumeKeepsTwoCopiesOfEveryBlockFileOnItsNode() throws Exception {
    Properties state = new ClusterDirectory(DIR).readState();
    for (String disk : List.of("mirror0=", "mirror1=")) {
      assertTrue(state.getProperty("node1.disks", "").contains(disk), state.toString());
    }
    String mirror = state.getProperty("node1.disks").replaceAll(".*mirror1=(\\S+).*", "$1");
    String limits = nodeGroupFiles("node1", "blkio.throttle.read_bps_device", "io.max");
    assertTrue(Pattern.compile("=" + Pattern.quote(mirror) + "\\s+(rbps=)?20000000\\b")
        .matcher(limits).find(), "mirror1 " + mirror + " throttled like a disk:\n" + limits);

    org.apache.hadoop.conf.Configuration conf =
        org.locus.bench.run.NetnsBenchClusters.clientConfiguration(new ClusterDirectory(DIR));
    byte[] data = new byte[300_000];
    new java.util.Random(7).nextBytes(data);
    try (org.apache.hadoop.hdfs.DistributedFileSystem fs =
        (org.apache.hadoop.hdfs.DistributedFileSystem) org.apache.hadoop.fs.FileSystem
            .newInstance(conf)) {
      org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/replicated");
      fs.mkdirs(dir);
      fs.setStoragePolicy(dir, "ALL_NVDIMM");
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, "blob");
      try (var out = fs.create(file, (short) 2)) {
        out.write(data);
      }
      // close() returns once the pipeline acked and the NameNode counted one replica; the
      // other DataNode's report of the block may land later: a bounded wait for it.
      var blocks = fs.getFileBlockLocations(file, 0, data.length);
      for (int attempt = 0; attempt < 600 && fewestHosts(blocks) < 2; attempt++) {
        Thread.sleep(100);
        blocks = fs.getFileBlockLocations(file, 0, data.length);
      }
      for (var block : blocks) {
        assertEquals(List.of(org.apache.hadoop.fs.StorageType.NVDIMM,
            org.apache.hadoop.fs.StorageType.NVDIMM), List.of(block.getStorageTypes()),
            block.toString());
      }
      try (var in = fs.open(file)) {
        assertTrue(java.util.Arrays.equals(data, in.readAllBytes()), "read back");
      }
    }
    for (String node : List.of("node1", "node2")) {
      List<File> blockFiles;
      try (var paths = Files.walk(new File(LAYOUT.mountPoint(node, "replicated"), "data")
          .toPath())) {
        blockFiles = paths.filter(p -> p.getFileName().toString().startsWith("blk_"))
            .map(java.nio.file.Path::toFile).toList();
      }
      assertEquals(2, blockFiles.size(), node + ": one block and its checksum file "
          + blockFiles);
      for (File blockFile : blockFiles) {
        // MorphStore copies a file once its last writer closed it: a bounded wait.
        String status = "";
        for (int attempt = 0; attempt < 300 && !status.contains("copies=2"); attempt++) {
          status = HostCommand.run("getfattr", "--only-values", "-n", "user.morphstore.status",
              blockFile.getPath());
          if (!status.contains("copies=2")) {
            Thread.sleep(100);
          }
        }
        assertTrue(status.contains("wanted=2 copies=2"), blockFile + ": " + status);
      }
    }
  }

  private static int fewestHosts(org.apache.hadoop.fs.BlockLocation[] blocks)
      throws java.io.IOException {
    int fewest = Integer.MAX_VALUE;
    for (var block : blocks) {
      fewest = Math.min(fewest, block.getHosts().length);
    }
    return fewest;
  }

  @Test
  @Order(8)
  void daemonsLoadOnlyStockHadoopJarsAndTheDistBundle() throws Exception {
    for (String[] daemon : List.of(new String[] {"master", "namenode"},
        new String[] {"node1", "datanode"})) {
      long pid = Long.parseLong(Files.readString(
          LAYOUT.daemonPid(daemon[0], daemon[1]).toPath()).trim());
      List<String> argv = List.of(Files.readString(new File("/proc/" + pid + "/cmdline")
          .toPath()).split("\0"));
      String classpath = argv.get(argv.indexOf("-cp") + 1);
      List<String> expected = List.of(LAYOUT.nodeConfDir(daemon[0]).getPath(),
          new File(LAYOUT.hadoopHome(), "share/hadoop/hdfs").getPath(),
          new File(LAYOUT.hadoopHome(), "lib") + "/*",
          new File(LAYOUT.distDir(), "share/locus/lib") + "/*");
      assertEquals(expected, List.of(classpath.split(":")), daemon[1] + " classpath");
    }
    List<String> locusInStock = new ArrayList<>();
    for (File jar : new File(LAYOUT.hadoopHome(), "lib").listFiles()) {
      String real = jar.toPath().toRealPath().toString();
      if (real.contains("/org/locus/") || groupOf(jar).equals("org.locus")) {
        locusInStock.add(real);
      }
    }
    assertEquals(List.of(), locusInStock, "Locus jars among the stock Hadoop jars");
    File[] bundle = new File(LAYOUT.distDir(), "share/locus/lib").listFiles();
    assertEquals(new org.locus.netns.DistBundle(new File(System.getProperty("locus.home")))
        .builtJars().size(), bundle.length, "one jar per bundled module");
    for (File jar : bundle) {
      assertEquals("org.locus", groupOf(jar), jar + " in the bundle");
    }
  }

  @Test
  @Order(9)
  void nodeStopAndStartRestartsOneDataNode() {
    CliRun stop = CliRun.inProcess("cluster", "node", "stop", "--dir", DIR.getPath(), "node2",
        "--role", "datanode", "--kill");
    assertEquals(0, stop.exitCode(), stop.toString());
    assertTrue(CliRun.inProcess("cluster", "status", "--dir", DIR.getPath()).out()
        .contains("datanode(stopped)"));
    CliRun start = CliRun.inProcess("cluster", "node", "start", "--dir", DIR.getPath(), "node2",
        "--role", "datanode");
    assertEquals(0, start.exitCode(), start.toString());
    assertTrue(start.out().contains("node2 datanode: started (pid"), start.out());
    assertFalse(CliRun.inProcess("cluster", "status", "--dir", DIR.getPath()).out()
        .contains("datanode(stopped)"));
  }

  @Test
  @Order(10)
  void secondUpOnALiveDirectoryIsRefused() {
    CliRun run = CliRun.inProcess("cluster", "up", "--netns", "--dir", DIR.getPath(),
        "--nodes", "1");
    assertEquals(1, run.exitCode(), run.toString());
    assertTrue(run.err().contains("a cluster is already running in " + DIR), run.err());
  }

  @Test
  @Order(11)
  void downAfterTheSupervisorWasKilledRemovesEveryResource() throws Exception {
    Map<String, List<String>> up = NetnsResources.of(DIR);
    for (String kind : List.of("namespace", "link", "loop", "mount", "cgroup", "process")) {
      assertFalse(up.get(kind).isEmpty(), "a live cluster has a " + kind + ": " + up);
    }
    long supervisor = Long.parseLong(Files.readString(new File(DIR, "cluster.pid").toPath())
        .trim());
    ProcessHandle handle = ProcessHandle.of(supervisor).orElseThrow();
    handle.destroyForcibly();
    handle.onExit().get();
    CliRun down = CliRun.inProcess("cluster", "down", "--dir", DIR.getPath());
    assertEquals(0, down.exitCode(), down.toString());
    Map<String, List<String>> after = NetnsResources.of(DIR);
    assertTrue(NetnsResources.none(after), "left behind: " + after);
  }

  private static String groupOf(File jar) throws Exception {
    try (JarFile file = new JarFile(jar)) {
      return file.stream().map(e -> e.getName())
          .filter(n -> n.startsWith("META-INF/maven/") && n.endsWith("/pom.properties"))
          .map(n -> n.split("/")[2]).findFirst().orElse("");
    }
  }
}
