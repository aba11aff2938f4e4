package org.locus.bench.kat;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.report.TextTable;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kat.placement.PlacementMap;

/**
 * The KAT bench ({@code locus bench kat}): WordCount (without and with its combiner) and Grep
 * over a generated Zipf corpus, native placement vs KAT, side by side in one run, repeated; on
 * the embedded cluster (loopback) or on a netns cluster whose links are shaped; Markdown report
 * and SVG chart.
 */
public final class KatBench {
  public static final String GREP_REGEX = "\\bw[1-9a-f][0-9a-z]?\\b";

  /**
   * What to run.
   *
   * @param netns a netns cluster in {@code netnsDir} (else the embedded one)
   * @param link netns only: every node's link each way, e.g. {@code 10mbit}
   * @param nodeMemory netns only: each node's memory, e.g. {@code 2g}
   * @param katKeys KAT's feature key set, applied to the cluster
   * @param locusHome netns only: the Locus checkout the cluster's dist bundle is written from
   * @param out the report directory, already created
   */
  public record Request(boolean netns, File netnsDir, String link, String nodeMemory,
      int nodes, int sizeMib, int blockMib, int runs, Configuration katKeys, File locusHome,
      File out) {
  }

  private final Request request;

  public KatBench(Request request) {
    this.request = request;
  }

  /**
   * Runs the bench, reporting progress on {@code err}, and prints the report and where it is on
   * {@code out}.
   */
  public void run(PrintStream out, PrintStream err) throws Exception {
    int nodes = request.nodes();
    int sizeMib = request.sizeMib();
    int blockMib = request.blockMib();
    long blockBytes = (long) blockMib << 20;
    int runs = request.runs();
    List<KatComparison.Result> results = new ArrayList<>();
    long start = System.nanoTime();
    String described;
    try (KatBenchCluster cluster = request.netns()
        ? new NetnsKatBenchCluster(request.netnsDir(), nodes, request.link(),
            request.nodeMemory(), blockBytes, request.katKeys(), request.locusHome(), err)
        : new EmbeddedKatBenchCluster(Files.createTempDirectory("locus-bench-kat").toFile(),
            nodes, blockBytes, request.katKeys())) {
      described = cluster.describe();
      DistributedFileSystem fs = cluster.fs();
      Path corpus = new Path("/bench/corpus");
      // files of two blocks each: native's maps are the blocks, as in KAT's owner splits
      int files = Math.max(nodes, sizeMib / (2 * blockMib));
      err.printf("generating %d MiB Zipf corpus in %d files%n", sizeMib, files);
      new ZipfTextGenerator(20_000, 1.0, 2012).write(fs, corpus, files,
          (sizeMib * (1L << 20)) / files);
      KatComparison comparison = new KatComparison(cluster.conf(), fs,
          cluster::workerBytesSent);
      err.println("importing the KAT datasets (wordcount, grep)");
      PlacementMap words = comparison.importDataset(corpus, "wordcount",
          new Path("/bench/kat-wordcount"));
      PlacementMap greps = comparison.importDataset(corpus, "grep:" + GREP_REGEX,
          new Path("/bench/kat-grep"));
      for (int r = 1; r <= runs; r++) {
        err.printf("run %d/%d: wordcount (no combiner) native and KAT%n", r, runs);
        results.add(comparison.wordCount(corpus, new Path("/bench/kat-wordcount"), words,
            false));
        err.printf("run %d/%d: wordcount (combiner) native and KAT%n", r, runs);
        results.add(comparison.wordCount(corpus, new Path("/bench/kat-wordcount"), words,
            true));
        err.printf("run %d/%d: grep native and KAT%n", r, runs);
        results.add(comparison.grep(corpus, new Path("/bench/kat-grep"), greps, GREP_REGEX));
      }
    }
    File dir = request.out();
    String report = new KatBenchReport(described, sizeMib, blockMib, runs, results).write(dir);
    out.print(report);
    out.printf("%nreport: %s/kat-bench.md, chart: %s/kat-bench.svg (%s)%n", dir, dir,
        TextTable.seconds((System.nanoTime() - start) / 1_000_000));
  }

  /** Creates the report directory {@code dir} unless it exists. */
  public static void reportDirectory(File dir) throws IOException {
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create report directory " + dir);
    }
  }
}
