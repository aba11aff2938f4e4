package org.locus.cli.demo;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.locus.bench.report.TextTable;
import org.locus.cli.cluster.FeatureCatalog;
import org.locus.cli.command.Console;
import org.locus.cli.command.HadoopLogFile;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.energy.EnergyDemo;
import org.locus.cli.kat.KatDemo;
import org.locus.jobs.Grep;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kit.ClusterNode;
import org.locus.kit.LocusMiniCluster;

/**
 * {@code locus demo}: the README's main job. Brings up a 4-node embedded cluster (each node on
 * its own host), loads a generated Zipf text corpus, runs Grep and WordCount, and prints where
 * the blocks live, how many maps ran data-local and how long each job took; then each feature's
 * section, where its point shows on this cluster, each ending in a one-line verdict. Hadoop's
 * own logs go to {@code DIR/logs/hadoop.log}, never to the terminal.
 */
public final class DemoCommand extends OptionsCommand {
  private static final int NODES = 4;
  private static final long BLOCK_SIZE = 512 * 1024;

  public DemoCommand() {
    super("locus demo");
  }

  @Override
  public String name() {
    return "demo";
  }

  @Override
  public String summary() {
    return "bring up a 4-node embedded cluster, run WordCount and Grep on a generated corpus,"
        + " report block placement, locality and time, stop the cluster";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
        .desc("working directory (default: a fresh one under the temporary directory; the"
            + " clusters' data is removed at the end, the logs are kept)")
        .build());
    options.addOption(Option.builder().longOpt("files").hasArg().argName("N")
        .desc("corpus files (default 4)").build());
    options.addOption(Option.builder().longOpt("file-kib").hasArg().argName("KIB")
        .desc("size of each corpus file in KiB (default 512)").build());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "[--dir DIR] [--files N] [--file-kib KIB]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int files = intOption(line, "files", 4, 1, 1000);
    int fileKib = intOption(line, "file-kib", 512, 64, 1024 * 1024);
    File dir = line.hasOption("dir") ? new File(line.getOptionValue("dir"))
        : Files.createTempDirectory("locus-demo").toFile();
    File log = new File(dir, "logs/hadoop.log");
    HadoopLogFile.redirectTo(log);
    long start = System.nanoTime();
    Progress progress = new Progress(console, start);
    console.err().println("Hadoop's own logs: " + log);
    CompletableFuture<Void> stopped = CompletableFuture.completedFuture(null);
    try {
      progress.step("starting a " + NODES + "-node embedded cluster with YARN in " + dir);
      LocusMiniCluster cluster = LocusMiniCluster.builder(new File(dir, "cluster"))
          .nodes(NODES)
          .volumes(StorageType.DISK)
          .yarn(true)
          .nodeManagerMemoryMb(3072)
          .setAll(FeatureCatalog.installed().keysOf("kat"))
          .set("dfs.blocksize", Long.toString(BLOCK_SIZE))
          .set("dfs.replication", "2")
          .start();
      try {
        Path corpus = run(cluster, files, fileKib * 1024L, console, progress);
        KatDemo.run(cluster, corpus, console, progress::step);
      } catch (Exception | Error e) {
        cluster.close();
        throw e;
      }
      // Stopping takes ten-odd seconds of waiting on daemon threads; the energy section does
      // not need this cluster, so it stops beside it.
      progress.step("stopping the cluster (beside the energy section)");
      stopped = CompletableFuture.runAsync(cluster::close);
      EnergyDemo.run(new File(dir, "energy"), console, progress::step);
    } finally {
      stopped.join();
      FileUtil.fullyDelete(new File(dir, "cluster"));
      FileUtil.fullyDelete(new File(dir, "energy"));
    }
    console.out().printf("%ndemo finished in %s; Hadoop's logs are in %s%n",
        TextTable.seconds((System.nanoTime() - start) / 1_000_000), log);
    return 0;
  }

  /** The baseline: stock placement, Grep natively. @return the corpus path */
  private static Path run(LocusMiniCluster cluster, int files, long fileBytes, Console console,
      Progress progress) throws Exception {
    FileSystem fs = cluster.getFileSystem();
    Path corpus = new Path("/demo/corpus");
    progress.step("writing a Zipf text corpus: " + files + " files of "
        + TextTable.bytes(fileBytes));
    long bytes = new ZipfTextGenerator(5000, 1.0, 42).write(fs, corpus, files, fileBytes);

    Configuration conf = cluster.getConfiguration();
    List<JobOutcome> outcomes = new ArrayList<>();
    // Grep's search job only: its sort job orders a few hundred bytes and shows nothing more.
    progress.step("running Grep's search job");
    outcomes.add(JobOutcome.run(Grep.createSearch(conf, corpus, new Path("/demo/grep-counts"),
        "\\bw1[0-9a-z]\\b", 2), false));

    console.out().println();
    console.out().printf("Locus demo: %d-node embedded cluster, each node on its own loopback"
        + " host; corpus %s in %d files, block size %s, replication 2%n",
        cluster.nodes().size(), TextTable.bytes(bytes), files, TextTable.bytes(BLOCK_SIZE));
    console.out().println();
    console.out().println("Where blocks live (replicas per host)");
    int hostsWithData = printPlacement(cluster, fs, corpus, console);
    console.out().println();
    console.out().println("Jobs, stock placement");
    TextTable jobs = new TextTable("JOB", "RESULT", "WALL", "MAPS", "DATA-LOCAL", "RACK-LOCAL",
        "SHUFFLE");
    long maps = 0;
    long local = 0;
    for (JobOutcome o : outcomes) {
      jobs.row(o.name(), o.succeeded() ? "ok" : "FAILED", TextTable.seconds(o.wallMillis()),
          o.totalMaps(), o.dataLocalMaps(), o.rackLocalMaps(), TextTable.bytes(o.shuffleBytes()));
      maps += o.totalMaps();
      local += o.dataLocalMaps();
    }
    jobs.print(console.out(), "  ");
    boolean ok = outcomes.stream().allMatch(JobOutcome::succeeded);
    console.out().printf("Verdict: %s; blocks on %d of %d hosts, %d of %d maps ran on a host"
        + " holding their data (host-level locality is real on this cluster).%n",
        ok ? "every job succeeded" : "A JOB FAILED", hostsWithData, cluster.nodes().size(),
        local, maps);
    return corpus;
  }

  /** @return the number of hosts holding at least one replica */
  private static int printPlacement(LocusMiniCluster cluster, FileSystem fs, Path corpus,
      Console console) throws IOException {
    Map<String, long[]> perHost = new TreeMap<>();
    for (ClusterNode node : cluster.nodes()) {
      perHost.put(node.host(), new long[2]);
    }
    for (FileStatus file : fs.listStatus(corpus)) {
      for (BlockLocation block : fs.getFileBlockLocations(file, 0, file.getLen())) {
        for (String host : block.getHosts()) {
          long[] tally = perHost.computeIfAbsent(host, h -> new long[2]);
          tally[0]++;
          tally[1] += block.getLength();
        }
      }
    }
    TextTable table = new TextTable("HOST", "REPLICAS", "BYTES");
    perHost.forEach((host, tally) -> table.row(host, tally[0], TextTable.bytes(tally[1])));
    table.print(console.out(), "  ");
    return (int) perHost.values().stream().filter(t -> t[0] > 0).count();
  }

  /** Numbered progress lines with elapsed time, on the error stream. */
  private static final class Progress {
    private final Console console;
    private final long start;
    private int step;

    Progress(Console console, long start) {
      this.console = console;
      this.start = start;
    }

    void step(String what) {
      step++;
      console.err().printf("[%5.1f s] %d. %s%n", (System.nanoTime() - start) / 1e9, step, what);
    }
  }
}
