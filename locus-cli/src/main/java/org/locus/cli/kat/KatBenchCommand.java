package org.locus.cli.kat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.cli.Console;
import org.locus.cli.HadoopLogFile;
import org.locus.cli.OptionsCommand;
import org.locus.cli.TextTable;
import org.locus.cli.UsageException;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kat.placement.PlacementMap;

/**
 * {@code locus bench kat}: WordCount (without and with its combiner) and Grep over a generated
 * Zipf corpus, native placement vs KAT, side by side in one run, repeated; on the embedded
 * cluster (loopback) or on a netns cluster whose links are shaped ({@code --cluster netns
 * --link 10mbit}); Markdown report and SVG chart.
 */
public final class KatBenchCommand extends OptionsCommand {
  static final String GREP_REGEX = "\\bw[1-9a-f][0-9a-z]?\\b";

  public KatBenchCommand() {
    super("locus bench kat");
  }

  @Override
  public String name() {
    return "kat";
  }

  @Override
  public String summary() {
    return "KAT vs native placement: WordCount and Grep wall time, shuffle bytes crossing hosts,"
        + " bytes on the wire (netns), data-local maps, identical output";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("cluster").hasArg().argName("KIND")
            .desc("embedded (one JVM, loopback; default) or netns (stock daemons in network"
                + " namespaces, shaped links; needs root)").build())
        .addOption(Option.builder().longOpt("link").hasArg().argName("RATE")
            .desc("netns only: every node's link each way, e.g. 10mbit, 1250kbit, none"
                + " (default 10mbit)").build())
        .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
            .desc("netns only: cluster directory (default /tmp/locus-bench-kat-netns)").build())
        .addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
            .desc("netns only: each node's memory, daemons and containers (default 2g: two"
                + " 512 MiB task containers per node)").build())
        .addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
            .desc("cluster nodes (default 4)").build())
        .addOption(Option.builder().longOpt("size").hasArg().argName("MIB")
            .desc("corpus size in MiB (default 8)").build())
        .addOption(Option.builder().longOpt("block").hasArg().argName("MIB")
            .desc("HDFS block size in MiB (default 1); with --size it sets the map count, so"
                + " a larger corpus can keep native's 8 maps").build())
        .addOption(Option.builder().longOpt("runs").hasArg().argName("R")
            .desc("runs of each job and placement, at least 3 for a spread (default 3)").build())
        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("report directory (default bench-out/kat)").build());
  }

  @Override
  protected String usageArguments() {
    return "[--cluster embedded|netns] [--link RATE] [--dir DIR] [--node-memory SIZE]"
        + " [--nodes N] [--size MIB] [--block MIB] [--runs R] [--out DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    String kind = line.getOptionValue("cluster", "embedded");
    if (!kind.equals("embedded") && !kind.equals("netns")) {
      throw new UsageException("--cluster takes embedded or netns, not '" + kind + "'");
    }
    boolean netns = kind.equals("netns");
    if (!netns && (line.hasOption("link") || line.hasOption("dir")
        || line.hasOption("node-memory"))) {
      throw new UsageException("--link, --dir and --node-memory need --cluster netns (the"
          + " embedded cluster's links are loopback, its nodes share one JVM)");
    }
    int nodes = intOption(line, "nodes", 4, 2, 16);
    int sizeMib = intOption(line, "size", 8, 1, 4096);
    int blockMib = intOption(line, "block", 1, 1, 1024);
    long blockBytes = (long) blockMib << 20;
    int runs = intOption(line, "runs", 3, 1, 100);
    File out = new File(line.getOptionValue("out", "bench-out/kat"));
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new IOException("cannot create report directory " + out);
    }
    File log = new File(out, "hadoop.log");
    HadoopLogFile.redirectTo(log);
    console.err().println("Hadoop's own logs: " + log);
    List<KatComparison.Result> results = new ArrayList<>();
    long start = System.nanoTime();
    String described;
    try (KatBenchCluster cluster = netns
        ? new NetnsKatBenchCluster(new File(line.getOptionValue("dir",
            "/tmp/locus-bench-kat-netns")).getAbsoluteFile(), nodes,
            line.getOptionValue("link", "10mbit"), line.getOptionValue("node-memory", "2g"),
            blockBytes, console)
        : new EmbeddedKatBenchCluster(Files.createTempDirectory("locus-bench-kat").toFile(),
            nodes, blockBytes)) {
      described = cluster.describe();
      DistributedFileSystem fs = cluster.fs();
      Path corpus = new Path("/bench/corpus");
      // files of two blocks each: native's maps are the blocks, as in KAT's owner splits
      int files = Math.max(nodes, sizeMib / (2 * blockMib));
      console.err().printf("generating %d MiB Zipf corpus in %d files%n", sizeMib, files);
      new ZipfTextGenerator(20_000, 1.0, 2012).write(fs, corpus, files,
          (sizeMib * (1L << 20)) / files);
      KatComparison comparison = new KatComparison(cluster.conf(), fs,
          cluster::workerBytesSent);
      console.err().println("importing the KAT datasets (wordcount, grep)");
      PlacementMap words = comparison.importDataset(corpus, "wordcount",
          new Path("/bench/kat-wordcount"));
      PlacementMap greps = comparison.importDataset(corpus, "grep:" + GREP_REGEX,
          new Path("/bench/kat-grep"));
      for (int r = 1; r <= runs; r++) {
        console.err().printf("run %d/%d: wordcount (no combiner) native and KAT%n", r, runs);
        results.add(comparison.wordCount(corpus, new Path("/bench/kat-wordcount"), words,
            false));
        console.err().printf("run %d/%d: wordcount (combiner) native and KAT%n", r, runs);
        results.add(comparison.wordCount(corpus, new Path("/bench/kat-wordcount"), words,
            true));
        console.err().printf("run %d/%d: grep native and KAT%n", r, runs);
        results.add(comparison.grep(corpus, new Path("/bench/kat-grep"), greps, GREP_REGEX));
      }
    }
    String report = new KatBenchReport(described, sizeMib, blockMib, runs, results).write(out);
    console.out().print(report);
    console.out().printf("%nreport: %s/kat-bench.md, chart: %s/kat-bench.svg (%s)%n", out, out,
        TextTable.seconds((System.nanoTime() - start) / 1_000_000));
    return 0;
  }
}
