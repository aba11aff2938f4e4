package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptReport;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerReport;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kat.hint.WordCountHint;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.placement.PlacementMap;
import org.locus.kat.verify.PlacementVerifier;
import org.locus.kat.verify.VerifyReport;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;

/**
 * KAT end to end on stock daemons in namespaces, configured only by {@code --feature kat}
 * (site files) and loading KAT only from the dist bundle: import, verify, key-aware
 * WordCount; `locus bench run --conf` on the running cluster, which runs WordCount key-aware
 * and records each node's link bytes; the stock Balancer leaving a placed dataset's owner
 * replicas in place; then a DataNode, and later a NodeManager, killed with SIGKILL in the
 * middle of a job. Needs root.
 * Costs one three-node YARN cluster start and five small jobs.
 */
@StartsNetnsClusters
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsKatTest {
  private static final File WORK = new File("target/test-clusters/netns-kat").getAbsoluteFile();
  private static final File DIR = new File(WORK, "cluster");
  private static final File CORPUS = new File(WORK, "corpus.txt");
  private static final Map<String, Long> EXPECTED = new TreeMap<>();

  @BeforeAll
  static void startClusterWithTheKatFeature() throws Exception {
    NetnsResources.freshWorkDirectory(WORK, DIR);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      String a = "w" + (i % 97);
      String b = "w" + ((i * 7) % 31);
      text.append(a).append(' ').append(b).append('\n');
      EXPECTED.merge(a, 1L, Long::sum);
      EXPECTED.merge(b, 1L, Long::sum);
    }
    Files.writeString(CORPUS.toPath(), text);
    NetnsResources.up(DIR, "--nodes", "3", "--yarn", "--feature", "kat", "--conf",
        "dfs.blocksize=262144", "--node-memory", "2g", "--disk-size", "1g");
  }

  @AfterAll
  static void neverLeaveAClusterBehind() {
    NetnsResources.down(DIR);
  }

  @Test
  @Order(1)
  void importPlacesEveryOwnersDataOnItsNode() {
    CliRun run = CliRun.inProcess("kat", "import", "--conf", DIR.getPath(), "--extractor",
        "wordcount", "--input", CORPUS.getPath(), "--output", "/kat/words", "--queues",
        "central");
    assertEquals(0, run.exitCode(), run.toString());
    ClusterLayout layout = new ClusterLayout(DIR);
    for (String host : new String[] {layout.address("node1"), layout.address("node2"),
        layout.address("node3")}) {
      assertTrue(run.out().contains(host), host + " owns data:\n" + run.out());
    }
  }

  @Test
  @Order(2)
  void verifyFindsNoSplitKeys() {
    CliRun run = CliRun.inProcess("kat", "verify", "--conf", DIR.getPath(), "--path",
        "/kat/words");
    assertEquals(0, run.exitCode(), run.toString());
    assertTrue(run.out().contains("keys split across nodes: 0"), run.out());
  }

  @Test
  @Order(3)
  void keyAwareWordCountCountsRightWithEveryMapDataLocal() throws Exception {
    CliRun run = CliRun.inProcess("job", "wordcount", "--conf", DIR.getPath(), "--input",
        "/kat/words", "--output", "/out/kat", "--kat", "--no-combiner");
    assertEquals(0, run.exitCode(), run.toString());
    Matcher row = Pattern.compile(
        "locus-wordcount\\s+ok\\s+[\\d.]+ s\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)").matcher(run.out());
    assertTrue(row.find(), run.out());
    // No map container off its owner; data-local counts assigned containers, maps launched
    // attempts (a speculative attempt killed before launch counts in the first only).
    assertEquals("0", row.group(3), "rack-local (off-owner) maps:\n" + run.out());
    assertTrue(Long.parseLong(row.group(2)) >= Long.parseLong(row.group(1)),
        "every map data-local:\n" + run.out());
    assertEquals(EXPECTED, counts("/out/kat"));
  }

  @Test
  @Order(4)
  void benchRunOnTheRunningClusterRunsKeyAwareAndRecordsTheBytesEachNodesLinkCarried()
      throws Exception {
    File out = new File(WORK, "bench-run");
    CliRun bench = CliRun.inProcess("bench", "run", "--suite", "puma-tiny", "--jobs",
        "wordcount", "--conf", DIR.getPath(), "--features", "kat", "--out", out.getPath(),
        "--no-report");
    assertEquals(0, bench.exitCode(), bench.toString());
    JsonNode root = new ObjectMapper().readTree(new File(out, "results.json"));
    assertEquals("netns", root.get("cluster").asText());
    assertEquals("[\"wordcount\"]", root.get("jobs").toString());
    JsonNode record = root.get("results").get(0);
    assertTrue(record.get("succeeded").asBoolean(), record.toString());
    // on a cluster that places by key, WordCount reads its input imported as a KAT dataset
    assertTrue(record.get("keyAware").asBoolean(), record.toString());
    JsonNode links = record.get("linkBytes");
    long sent = 0;
    long received = 0;
    for (String node : ClusterLayout.workers(3)) {
      assertTrue(links.has(node), node + " in " + links);
      assertTrue(links.get(node).get("sent").asLong() >= 0, links.toString());
      sent += links.get(node).get("sent").asLong();
      received += links.get(node).get("received").asLong();
    }
    // the job's AM talks to the ResourceManager on the master over its node's link at least
    assertTrue(sent > 0 && received > 0, links.toString());
  }

  /**
   * Hadoop's own Balancer, started as an operator starts {@code hdfs balancer}: its own JVM in
   * the master's namespace, on the NameNode's classpath (site files, stock jars, the bundle).
   * A dataset imported with replication 1 (every replica an owner's, pinned by kat.xml's
   * {@code dfs.datanode.block-pinning.enabled}) shares node1 with 40 MiB of plain blocks written
   * from inside node1 (so HDFS put them all there). The Balancer moves plain blocks off node1
   * and no block of the dataset.
   */
  @Test
  @Order(5)
  void theStockBalancerMovesPlainBlocksAndNoOwnerReplica() throws Exception {
    Configuration conf = clientConf();
    conf.set("dfs.replication", "1");
    try {
      ClusterLayout layout = new ClusterLayout(DIR);
      Path dataset = new Path("/kat/pinned");
      Map<String, String> before;
      try (FileSystem fs = FileSystem.newInstance(conf)) {
        DistributedFileSystem dfs = (DistributedFileSystem) fs;
        new ZipfTextGenerator(4000, 1.0, 11).write(dfs, new Path("/corpus-pinned"), 2,
            1L << 20);
        new KatImporter(dfs, new WordCountHint(), "wordcount", QueueDesign.CENTRAL, 96, p -> { })
            .run(new Path("/corpus-pinned"), dataset);
        assertEquals(0, verify(dfs, dataset).blocksOffOwner(), "placed before the Balancer");
        before = ownerBucketHosts(dfs, dataset);
        assertFalse(before.isEmpty(), "the import wrote no owner bucket");
      }
      File heavy = new File(WORK, "plain-40m.bin");
      byte[] chunk = new byte[1 << 20];
      new java.util.Random(5).nextBytes(chunk);
      try (java.io.OutputStream out = Files.newOutputStream(heavy.toPath())) {
        for (int i = 0; i < 40; i++) {
          out.write(chunk);
        }
      }
      String classpath = nameNodeClasspath(layout);
      CliRun put = CliRun.inProcess("cluster", "exec", "--dir", DIR.getPath(), "node1", "--",
          DaemonLauncher.javaBinary(), "-cp", classpath, "org.apache.hadoop.fs.FsShell",
          "-D", "dfs.replication=1", "-put", heavy.getPath(), "/heavy-plain");
      assertEquals(0, put.exitCode(), put.toString());

      CliRun balancer = CliRun.inProcess("cluster", "exec", "--dir", DIR.getPath(), "master",
          "--", DaemonLauncher.javaBinary(), "-cp", classpath,
          "org.apache.hadoop.hdfs.server.balancer.Balancer",
          // the Balancer skips blocks under 10 MB by default; these are 256 KiB
          "-D", "dfs.balancer.getBlocks.min-block-size=1", "-threshold", "1");
      assertEquals(0, balancer.exitCode(), balancer.toString());

      try (FileSystem fs = FileSystem.newInstance(conf)) {
        DistributedFileSystem dfs = (DistributedFileSystem) fs;
        int moved = 0;
        for (BlockLocation block : fs.getFileBlockLocations(new Path("/heavy-plain"), 0,
            Long.MAX_VALUE)) {
          if (!block.getHosts()[0].equals(layout.address("node1"))) {
            moved++;
          }
        }
        assertTrue(moved > 0, "the Balancer moved no plain block off node1:\n" + balancer);
        assertEquals(before, ownerBucketHosts(dfs, dataset),
            "owner bucket blocks moved by the Balancer");
        assertEquals(0, verify(dfs, dataset).blocksOffOwner());
      }
    } finally {
      // Replication-1 files lose blocks when a DataNode dies, which the next case makes happen
      // and then requires a healthy fsck of '/': this case's files must not outlive it.
      try (FileSystem fs = FileSystem.newInstance(conf)) {
        for (String path : List.of("/heavy-plain", "/kat/pinned", "/corpus-pinned")) {
          fs.delete(new Path(path), true);
        }
      }
    }
  }

  @Test
  @Order(6)
  void jobSurvivesADataNodeKilledMidJobAndFsckIsHealthy() throws Exception {
    Configuration conf = clientConf();
    try (FileSystem fs = FileSystem.get(conf)) {
      fs.copyFromLocalFile(new Path(CORPUS.toURI()), new Path("/plain/corpus.txt"));
    }
    CompletableFuture<CliRun> job = CompletableFuture.supplyAsync(() -> CliRun.inProcess(
        "job", "wordcount", "--conf", DIR.getPath(), "--input", "/plain", "--output",
        "/out/plain", "--no-combiner"));
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (yarn.getApplications(EnumSet.of(YarnApplicationState.RUNNING)).isEmpty()
          && !job.isDone()) {
        assertTrue(System.nanoTime() < deadline, "the job never started running");
        Thread.sleep(200);
      }
    }
    CliRun kill = CliRun.inProcess("cluster", "node", "stop", "--dir", DIR.getPath(), "node3",
        "--role", "datanode", "--kill");
    assertEquals(0, kill.exitCode(), kill.toString());
    CliRun run = job.get(10, TimeUnit.MINUTES);
    assertEquals(0, run.exitCode(), run.toString());
    assertEquals(EXPECTED, counts("/out/plain"));
    // Hadoop's fsck prints to the process's standard output: run it as its own process.
    CliRun fsck = CliRun.asProcess(new File(System.getProperty("locus.home")), "fsck",
        "--conf", DIR.getPath(), "/");
    assertTrue(fsck.out().contains("is HEALTHY"), fsck.toString());
  }

  @Test
  @Order(7)
  void tasksOfANodeManagerKilledMidJobRunElsewhereAndTheOutputIsRight() throws Exception {
    Configuration conf = clientConf();
    try (FileSystem fs = FileSystem.get(conf)) {
      // Eight small files: eight maps, spread over the nodes' containers.
      for (int f = 0; f < 8; f++) {
        fs.copyFromLocalFile(new Path(CORPUS.toURI()), new Path("/many/part-" + f + ".txt"));
      }
    }
    Configuration jobConf = new Configuration(conf);
    // The AM stops the lost node's containers through its NodeManager and, by default, keeps
    // trying to reach it for 3 minutes before the attempts count as done; 10 s here.
    jobConf.set("yarn.client.nodemanager-connect.max-wait-ms", "10000");
    jobConf.set("yarn.client.nodemanager-connect.retry-interval-ms", "1000");
    Job job = WordCount.create(jobConf, new Path("/many"), new Path("/out/many"), 2);
    job.submit();
    String victim = null;
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      ApplicationId app = ApplicationId.newInstance(
          Long.parseLong(job.getJobID().getJtIdentifier()), job.getJobID().getId());
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (victim == null) {
        assertTrue(System.nanoTime() < deadline && !job.isComplete(),
            "no task container ran on a node other than the AM's");
        victim = taskNodeBesidesTheAppMaster(yarn, app);
        if (victim == null) {
          Thread.sleep(100);
        }
      }
    }
    CliRun kill = CliRun.inProcess("cluster", "node", "stop", "--dir", DIR.getPath(), victim,
        "--role", "nodemanager", "--kill");
    assertEquals(0, kill.exitCode(), kill.toString());
    assertTrue(job.waitForCompletion(false), "the job failed after " + victim
        + "'s NodeManager was killed");
    long lost = job.getCounters().findCounter(JobCounter.NUM_KILLED_MAPS).getValue()
        + job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue()
        + job.getCounters().findCounter(JobCounter.NUM_KILLED_REDUCES).getValue()
        + job.getCounters().findCounter(JobCounter.NUM_FAILED_REDUCES).getValue();
    assertTrue(lost > 0, "no task attempt was lost with " + victim + "'s NodeManager: the kill"
        + " did not hit a running task");
    Map<String, Long> expected = new TreeMap<>();
    EXPECTED.forEach((word, n) -> expected.put(word, 8 * n));
    assertEquals(expected, counts("/out/many"));
  }

  /** @return the node running a task container of {@code app} but not its AM, or null */
  private static String taskNodeBesidesTheAppMaster(YarnClient yarn, ApplicationId app)
      throws Exception {
    ClusterLayout layout = new ClusterLayout(DIR);
    for (ApplicationAttemptReport attempt : yarn.getApplicationAttempts(app)) {
      if (attempt.getAMContainerId() == null) {
        continue;
      }
      for (ContainerReport container : yarn.getContainers(attempt.getApplicationAttemptId())) {
        if (container.getContainerState() != ContainerState.RUNNING
            || container.getContainerId().equals(attempt.getAMContainerId())) {
          continue;
        }
        String host = container.getAssignedNode().getHost();
        String amHost = yarn.getContainerReport(attempt.getAMContainerId()).getAssignedNode()
            .getHost();
        for (String node : ClusterLayout.workers(3)) {
          if (layout.address(node).equals(host) && !host.equals(amHost)) {
            return node;
          }
        }
      }
    }
    return null;
  }

  /** @return the classpath the NameNode process runs with, from its saved argument vector */
  private static String nameNodeClasspath(ClusterLayout layout) throws Exception {
    String[] argv = Files.readString(layout.daemonArgv(ClusterLayout.MASTER, "namenode")
        .toPath()).split("\0");
    for (int i = 0; i + 1 < argv.length; i++) {
      if (argv[i].equals("-cp")) {
        return argv[i + 1];
      }
    }
    throw new AssertionError("no -cp in the NameNode's argument vector");
  }

  /** @return block id → its hosts, sorted, for every file of the dataset */
  /**
   * @return the hosts of every block of the dataset's owner buckets ({@code owner=HOST/}), by
   *     file and offset; the placement map ({@code _kat/}) has no owner, is not pinned and may
   *     move like any plain file
   */
  private static Map<String, String> ownerBucketHosts(DistributedFileSystem fs, Path dataset)
      throws Exception {
    Map<String, String> hosts = new TreeMap<>();
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
        fs.listFiles(dataset, true);
    while (files.hasNext()) {
      org.apache.hadoop.fs.LocatedFileStatus file = files.next();
      if (!file.getPath().getParent().getName().startsWith("owner=")) {
        continue;
      }
      for (BlockLocation block : file.getBlockLocations()) {
        String[] names = block.getHosts().clone();
        java.util.Arrays.sort(names);
        hosts.put(file.getPath().toUri().getPath() + "@" + block.getOffset(),
            String.join(",", names));
      }
    }
    return hosts;
  }

  private static VerifyReport verify(DistributedFileSystem fs, Path dataset) throws Exception {
    return new PlacementVerifier(fs, new WordCountHint())
        .verify(dataset, PlacementMap.read(fs, dataset), 3);
  }

  private static Configuration clientConf() {
    Configuration conf = new org.apache.hadoop.yarn.conf.YarnConfiguration();
    for (String site : new String[] {"core", "hdfs", "yarn", "mapred"}) {
      conf.addResource(new Path(new File(DIR, "conf/" + site + "-site.xml").toURI()));
    }
    return conf;
  }

  private static Map<String, Long> counts(String dir) throws Exception {
    Map<String, Long> counts = new TreeMap<>();
    try (FileSystem fs = FileSystem.get(clientConf())) {
      for (FileStatus part : fs.listStatus(new Path(dir))) {
        if (!part.getPath().getName().startsWith("part-")) {
          continue;
        }
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
            fs.open(part.getPath()), StandardCharsets.UTF_8))) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] kv = line.split("\t");
            counts.merge(kv[0], Long.parseLong(kv[1]), Long::sum);
          }
        }
      }
    }
    return counts;
  }
}
