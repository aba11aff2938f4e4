package org.locus.bench.metadata;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.bench.BenchException;
import org.locus.bench.run.ClusterRecipe;
import org.locus.bench.run.NetnsCluster;
import org.locus.bench.run.NetnsBenchClusters;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.locus.ndcoupling.fatbtree.client.FatBtreePartitionResolver;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;
import org.locus.netns.MetadataLayout;
import org.locus.netns.NodeCgroup;
import org.locus.netns.ResourceLedger;

/**
 * {@code locus bench metadata} (issue 43 item 4; seed 004 §5.3, Table 5, Fig. 7): metadata
 * throughput of one NameNode, SDP and the Fat-Btree as the nodes grow. For each cluster size a
 * {@code --metadata fatbtree} netns cluster (every node a NameNode of its own partition with an
 * index node, and a DataNode; every node capped at the same CPU) serves all three layouts
 * ({@link MetadataLayoutUnderTest}), which take turns run by run in a rotating order. A run of a
 * layout starts a {@link MetadataBenchClient} JVM inside every node; they write the files
 * (each node its share) and then each reads them all. After each Fat-Btree run the index is
 * checked against the namespace: every file of the run is in the index with the partition that
 * holds it, and nothing else is. Optionally Hadoop's own NNThroughputBenchmark runs on node1
 * against partition 1's NameNode, as a check of the one-NameNode figures.
 */
public final class MetadataBench {
  private static final long CLIENT_TIMEOUT_MINUTES = 30;
  private static final long DISK_BYTES = 1L << 30;
  private static final int WARM_UP_FILES = 200;
  private static final Pattern RESULT = Pattern.compile(
      "result phase=(\\w+) ops=(\\d+) start_ms=(\\d+) end_ms=(\\d+)");
  private static final Pattern NN_OPS = Pattern.compile("Ops per sec: ([0-9.]+)");

  private final MetadataBenchRequest request;
  private final PrintStream progress;

  public MetadataBench(MetadataBenchRequest request, PrintStream progress) {
    this.request = request;
    this.progress = progress;
  }

  /** Runs every cluster size and writes the report; returns its file. */
  public File run() throws Exception {
    File out = request.out().getAbsoluteFile();
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new BenchException("cannot create " + out);
    }
    List<MetadataSample> samples = new ArrayList<>();
    Map<Integer, double[]> nnThroughput = new TreeMap<>();
    List<String> indexChecks = new ArrayList<>();
    int total = request.nodeCounts().size() * request.runs() * request.layouts().size();
    int done = 0;
    for (int nodes : request.nodeCounts()) {
      ClusterDirectory dir = new ClusterDirectory(new File(out, "cluster-" + nodes + "n"));
      try (NetnsCluster cluster = start(dir, nodes)) {
        // a fresh cluster's first operations run in the interpreter: one small unmeasured run
        // of every layout first, so that no layout's first measured run pays for that
        for (MetadataLayoutUnderTest layout : request.layouts()) {
          runClients(dir, nodes, layout, 0, "/bench/metadata/warm-up-" + layout.word(),
              Math.min(request.files(), WARM_UP_FILES));
        }
        progress.printf("%d node(s): warmed up (one run of %d files per layout)%n", nodes,
            Math.min(request.files(), WARM_UP_FILES));
        for (int run = 1; run <= request.runs(); run++) {
          List<MetadataLayoutUnderTest> order = new ArrayList<>(request.layouts());
          Collections.rotate(order, -(run - 1));
          for (MetadataLayoutUnderTest layout : order) {
            String runDir = "/bench/metadata/r" + run + "-" + layout.word();
            List<MetadataSample> phases = runClients(dir, nodes, layout, run, runDir,
                request.files());
            samples.addAll(phases);
            done++;
            progress.printf(Locale.ROOT, "[%d/%d] %d node(s), run %d, %-9s write %.1f ops/s,"
                + " read %.1f ops/s%n", done, total, nodes, run, layout.label(),
                phases.get(0).opsPerSecond(), phases.get(1).opsPerSecond());
            if (layout == MetadataLayoutUnderTest.FATBTREE) {
              indexChecks.add(checkIndex(dir, nodes, runDir, run));
            }
            writeSamples(new File(out, "samples.tsv"), samples);
          }
        }
        if (request.nnThroughput()) {
          nnThroughput.put(nodes, nnThroughputBenchmark(dir, nodes));
          progress.printf(Locale.ROOT, "%d node(s): NNThroughputBenchmark on node1: create %.1f"
              + " ops/s, open %.1f ops/s%n", nodes, nnThroughput.get(nodes)[0],
              nnThroughput.get(nodes)[1]);
        }
      }
      // after every size, so that a bench cut short still leaves a report of what it measured
      writeReport(out, samples, nnThroughput, indexChecks);
    }
    return writeReport(out, samples, nnThroughput, indexChecks);
  }

  private File writeReport(File out, List<MetadataSample> samples,
      Map<Integer, double[]> nnThroughput, List<String> indexChecks) throws IOException {
    MetadataBenchReport report = new MetadataBenchReport(request, samples, nnThroughput,
        indexChecks);
    report.chart(new File(out, "metadata-bench.svg").toPath());
    File md = new File(out, "report.md");
    Files.writeString(md.toPath(), report.markdown(), StandardCharsets.UTF_8);
    return md;
  }

  /** Starts the {@code nodes}-node Fat-Btree cluster every layout of this size runs on. */
  private NetnsCluster start(ClusterDirectory dir, int nodes) throws IOException {
    ClusterRecipe recipe = ClusterRecipe.builder(nodes)
        .yarn(false)
        .nodeMemory(request.nodeMemoryBytes())
        .nodeCpus(request.nodeCpus())
        .diskSize(DISK_BYTES)
        .setAll(request.keys())
        .metadata(MetadataLayout.FATBTREE)
        .build();
    return NetnsCluster.start(dir.root(), recipe, "the metadata bench's " + nodes + " nodes",
        request.home(), progress);
  }

  /** Starts a client in every node, waits for all, and sums each phase over them. */
  private List<MetadataSample> runClients(ClusterDirectory dir, int nodes,
      MetadataLayoutUnderTest layout, int run, String runDir, int files) throws Exception {
    ClusterLayout cluster = new ClusterLayout(dir.root());
    NodeCgroup cgroups = NodeCgroup.forHost(cluster, new ResourceLedger(cluster.ledgerFile()));
    DaemonLauncher launcher = new DaemonLauncher(cluster, cgroups);
    File sync = StartBarrier.reset(new File(dir.root(), "bench-sync/r" + run + "-"
        + layout.word()));
    List<Process> clients = new ArrayList<>();
    List<File> logs = new ArrayList<>();
    for (int k = 1; k <= nodes; k++) {
      List<String> java = List.of(DaemonLauncher.javaBinary(), "-Xmx192m", "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
          MetadataBenchClient.class.getName(), dir.root().getPath(), layout.word(),
          Integer.toString(k), Integer.toString(nodes), Integer.toString(files),
          Integer.toString(request.fileBytes()), runDir, sync.getPath(),
          Integer.toString(run));
      File log = new File(dir.root(), "bench-logs/r" + run + "-" + layout.word() + "-node" + k
          + ".log");
      Files.createDirectories(log.getParentFile().toPath());
      logs.add(log);
      clients.add(new ProcessBuilder(launcher.inNode("node" + k, java))
          .redirectErrorStream(true).redirectOutput(log).start());
    }
    long[] ops = new long[2];
    long[] starts = {Long.MAX_VALUE, Long.MAX_VALUE};
    long[] ends = new long[2];
    for (int k = 0; k < nodes; k++) {
      Process client = clients.get(k);
      if (!client.waitFor(CLIENT_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        clients.forEach(Process::destroyForcibly);
        throw new BenchException("the " + layout.label() + " client on node" + (k + 1)
            + " ran over " + CLIENT_TIMEOUT_MINUTES + " minutes"
            + memoryLimitKills(cgroups, nodes) + "; see " + logs.get(k));
      }
      String output = Files.readString(logs.get(k).toPath());
      if (client.exitValue() != 0) {
        clients.forEach(Process::destroyForcibly);
        throw new BenchException("the " + layout.label() + " client on node" + (k + 1)
            + " failed (exit " + client.exitValue() + ")" + memoryLimitKills(cgroups, nodes)
            + ":\n" + tail(output));
      }
      Matcher m = RESULT.matcher(output);
      int phases = 0;
      while (m.find()) {
        int p = m.group(1).equals("write") ? 0 : 1;
        ops[p] += Long.parseLong(m.group(2));
        starts[p] = Math.min(starts[p], Long.parseLong(m.group(3)));
        ends[p] = Math.max(ends[p], Long.parseLong(m.group(4)));
        phases++;
      }
      if (phases != 2) {
        throw new BenchException("the " + layout.label() + " client on node" + (k + 1)
            + " printed " + phases + " of 2 results:\n" + tail(output));
      }
    }
    return List.of(
        new MetadataSample(nodes, layout, run, "write", ops[0], starts[0], ends[0]),
        new MetadataSample(nodes, layout, run, "read", ops[1], starts[1], ends[1]));
  }

  /**
   * Compares the index's entries under {@code runDir} with the partitions' namespaces: every
   * node's directory and files, each with the partition that holds it, and nothing else.
   *
   * @return one line for the report
   * @throws BenchException naming the first disagreement
   */
  private String checkIndex(ClusterDirectory dir, int nodes, String runDir, int run)
      throws Exception {
    Configuration conf = NetnsBenchClusters.clientConfiguration(dir);
    Map<String, Integer> namespace = new TreeMap<>();
    for (int k = 1; k <= nodes; k++) {
      try (FileSystem fs = FileSystem.newInstance(MetadataBenchClient.partitionUri(k), conf)) {
        String nodeDir = runDir + "/node" + k;
        namespace.put(nodeDir, k);
        for (FileStatus status : fs.listStatus(new Path(nodeDir))) {
          namespace.put(nodeDir + "/" + status.getPath().getName(), k);
        }
      }
    }
    Map<String, Integer> index = new TreeMap<>();
    List<Integer> leafNodes = new ArrayList<>();
    try (FatBtreePartitionResolver resolver = FatBtreePartitionResolver.connect(conf, 1)) {
      for (IndexEntry e : resolver.subtree(runDir)) {
        index.put(e.key().path(), e.owner());
      }
      for (int k = 1; k <= nodes; k++) {
        leafNodes.add(resolver.leafNodeOf(runDir + "/node" + k + "/f" + (k - 1)));
      }
    }
    if (!index.equals(namespace)) {
      List<String> diff = new ArrayList<>();
      namespace.forEach((p, k) -> {
        if (!k.equals(index.get(p))) {
          diff.add(p + " on ns" + k + ", index " + index.get(p));
        }
      });
      index.forEach((p, k) -> {
        if (!namespace.containsKey(p)) {
          diff.add(p + " in the index (" + k + ") but in no partition");
        }
      });
      throw new BenchException("run " + run + ": the Fat-Btree index disagrees with the"
          + " namespace under " + runDir + " (" + diff.size() + " paths), e.g. "
          + diff.subList(0, Math.min(5, diff.size())));
    }
    return String.format(Locale.ROOT, "%d node(s), run %d: %d index entries = the %d files and"
        + " directories of the partitions; each node's first file's leaf on node %s", nodes,
        run, index.size(), namespace.size(), leafNodes);
  }

  /** @return {create, open} ops/s of NNThroughputBenchmark on node1 against ns1 */
  private double[] nnThroughputBenchmark(ClusterDirectory dir, int nodes) throws Exception {
    ClusterLayout cluster = new ClusterLayout(dir.root());
    DaemonLauncher launcher = new DaemonLauncher(cluster,
        NodeCgroup.forHost(cluster, new ResourceLedger(cluster.ledgerFile())));
    File conf = cluster.nodeConfDir("node1");
    String fs = "hdfs://" + cluster.address("node1") + ":8020";
    double[] result = new double[2];
    String[] ops = {"create", "open"};
    for (int i = 0; i < ops.length; i++) {
      List<String> args = new ArrayList<>(List.of(DaemonLauncher.javaBinary(), "-Xmx256m",
          "-XX:+UseSerialGC", "-Dlog4j.configuration=file:" + new File(conf, "log4j.properties"),
          "-cp", conf.getPath() + File.pathSeparator + System.getProperty("java.class.path"),
          "org.apache.hadoop.hdfs.server.namenode.NNThroughputBenchmark", "-fs", fs,
          "-op", ops[i], "-threads", Integer.toString(nodes), "-files",
          Integer.toString(request.files()), "-filesPerDir", "1000",
          "-baseDirName", "/bench/nnthroughput-" + ops[i]));
      if (ops[i].equals("create")) {
        args.add("-close");
      }
      File log = new File(dir.root(), "bench-logs/nnthroughput-" + ops[i] + ".log");
      Process process = new ProcessBuilder(launcher.inNode("node1", args))
          .redirectErrorStream(true).redirectOutput(log).start();
      if (!process.waitFor(CLIENT_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new BenchException("NNThroughputBenchmark -op " + ops[i] + " ran over "
            + CLIENT_TIMEOUT_MINUTES + " minutes; see " + log);
      }
      String output = Files.readString(log.toPath());
      Matcher m = NN_OPS.matcher(output);
      OptionalDouble last = OptionalDouble.empty();
      while (m.find()) {
        last = OptionalDouble.of(Double.parseDouble(m.group(1)));
      }
      if (process.exitValue() != 0 || last.isEmpty()) {
        throw new BenchException("NNThroughputBenchmark -op " + ops[i] + " on node1 failed"
            + " (exit " + process.exitValue() + "):\n" + tail(output));
      }
      result[i] = last.getAsDouble();
    }
    return result;
  }

  private static void writeSamples(File tsv, List<MetadataSample> samples) throws IOException {
    StringBuilder text = new StringBuilder(MetadataSample.TSV_HEADER).append('\n');
    samples.forEach(s -> text.append(s.tsv()).append('\n'));
    Files.writeString(tsv.toPath(), text, StandardCharsets.UTF_8);
  }

  /**
   * Names the nodes where the kernel killed a process at the node's memory limit (a daemon or
   * the client): a client then fails only with the refused connection to the daemon it lost.
   */
  private String memoryLimitKills(NodeCgroup cgroups, int nodes) {
    StringBuilder killed = new StringBuilder();
    for (int k = 1; k <= nodes; k++) {
      long kills = cgroups.oomKills("node" + k);
      if (kills > 0) {
        killed.append(killed.length() == 0 ? "" : ", ").append("node").append(k)
            .append(" (").append(kills).append(')');
      }
    }
    return killed.length() == 0 ? "" : "; the kernel killed processes at the memory limit of "
        + killed + ": give the nodes more with --node-memory (now "
        + (request.nodeMemoryBytes() >> 20) + " MiB)";
  }

  private static String tail(String output) {
    String[] lines = output.split("\n");
    return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 20),
        lines.length));
  }
}
