package org.locus.bench.metadata;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

import org.locus.bench.report.BarChartSvg;
import org.locus.netns.NodeCpus;

/**
 * The metadata bench's report from its samples: per cluster size and layout, the mean write and
 * read throughput over the runs with their range, each also as a multiple of the same layout
 * on one node (the seed's Fig. 7 as scaling); Hadoop's NNThroughputBenchmark beside the
 * one-NameNode rows; the index checks; and a chart of the means.
 */
public final class MetadataBenchReport {
  private final MetadataBenchRequest request;
  private final List<MetadataSample> samples;
  private final Map<Integer, double[]> nnThroughput;
  private final List<String> indexChecks;

  public MetadataBenchReport(MetadataBenchRequest request, List<MetadataSample> samples,
      Map<Integer, double[]> nnThroughput, List<String> indexChecks) {
    this.request = request;
    this.samples = List.copyOf(samples);
    this.nnThroughput = new TreeMap<>(nnThroughput);
    this.indexChecks = List.copyOf(indexChecks);
  }

  /** @return ops/s of one phase of one layout at one size over its runs (empty: none ran) */
  public DoubleSummaryStatistics stats(int nodes, MetadataLayoutUnderTest layout, String phase) {
    return samples.stream().filter(s -> s.nodes() == nodes && s.layout() == layout
        && s.phase().equals(phase)).mapToDouble(MetadataSample::opsPerSecond)
        .summaryStatistics();
  }

  /** @return the mean at {@code nodes} over the mean at the smallest size measured */
  public OptionalDouble scaling(int nodes, MetadataLayoutUnderTest layout, String phase) {
    int base = request.nodeCounts().get(0);
    DoubleSummaryStatistics at = stats(nodes, layout, phase);
    DoubleSummaryStatistics one = stats(base, layout, phase);
    return at.getCount() == 0 || one.getCount() == 0 || one.getAverage() <= 0
        ? OptionalDouble.empty() : OptionalDouble.of(at.getAverage() / one.getAverage());
  }

  /** @return the report in Markdown */
  public String markdown() {
    StringBuilder md = new StringBuilder("# Metadata throughput bench (seed 004 §5.3)\n\n");
    md.append(String.format(Locale.ROOT, "%d files of %d bytes per run (replication 1);"
        + " cluster sizes %s; %d run(s) of every layout per size, the layouts' order rotating"
        + " from run to run. Each size is one `--metadata fatbtree` netns cluster: node *k* runs"
        + " the NameNode of partition ns*k* with the Fat-Btree index node *k* in it, and a"
        + " DataNode; every node is capped at **%s core(s)** (`--node-cpus`, a CFS quota: the"
        + " clients, NameNode, index and DataNode of a node share it) and %d MiB of memory."
        + " A client JVM runs inside every node: write phase, each node creates #files/#nodes"
        + " files; read phase, each node opens and reads every file in its own random order"
        + " (every byte checked). Before the measured runs, one unmeasured run of up to 200"
        + " files per layout warms the cluster's daemons up. Throughput = all nodes' operations"
        + " / (last end − first start) of the phase.%n%n", request.files(), request.fileBytes(),
        request.nodeCounts(), request.runs(), NodeCpus.format(request.nodeCpus()),
        request.nodeMemoryBytes() >> 20));
    md.append("- **one NameNode**: every client uses partition 1's NameNode (on node1, capped"
        + " like every node); the other NameNodes idle.\n");
    md.append("- **SDP**: each client writes into its own partition; a reader maps the path's"
        + " directory to its partition (static mount table) and goes there.\n");
    md.append("- **Fat-Btree**: each client writes into its own partition and inserts the"
        + " path into the index at its own node (the node's directory was assigned to it, so"
        + " the leaf is local); a reader looks the path up at its own node's index (at most"
        + " one forward, to the leaf's node), then the owning partition serves it.\n\n");
    md.append("| nodes | layout | write ops/s mean (min–max) | write × smallest | read ops/s"
        + " mean (min–max) | read × smallest |\n|---|---|---|---|---|---|\n");
    for (int nodes : request.nodeCounts()) {
      for (MetadataLayoutUnderTest layout : request.layouts()) {
        DoubleSummaryStatistics w = stats(nodes, layout, "write");
        DoubleSummaryStatistics r = stats(nodes, layout, "read");
        md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s |%n", nodes,
            layout.label(), range(w), num(scaling(nodes, layout, "write")), range(r),
            num(scaling(nodes, layout, "read"))));
      }
    }
    if (!nnThroughput.isEmpty()) {
      md.append("\nHadoop's `NNThroughputBenchmark` (hadoop-hdfs 3.5.0 tests jar) on node1"
          + " against partition 1's NameNode (`-fs hdfs://NODE1:8020`, `-threads` = nodes,"
          + " `-files` as above): metadata only — `create` is create + close without a block,"
          + " `open` is getBlockLocations — and its client shares node1's cap with the"
          + " NameNode.\n\n| nodes | NNThroughputBenchmark create ops/s | open ops/s | one"
          + " NameNode write ops/s (this bench) | read ops/s |\n|---|---|---|---|---|\n");
      nnThroughput.forEach((nodes, v) -> md.append(String.format(Locale.ROOT,
          "| %d | %.1f | %.1f | %s | %s |%n", nodes, v[0], v[1],
          mean(stats(nodes, MetadataLayoutUnderTest.SINGLE, "write")),
          mean(stats(nodes, MetadataLayoutUnderTest.SINGLE, "read")))));
    }
    if (!indexChecks.isEmpty()) {
      md.append("\nIndex against namespace after every Fat-Btree run:\n\n");
      indexChecks.forEach(c -> md.append("- ").append(c).append('\n'));
    }
    md.append("\n![ops/s](metadata-bench.svg)\n\nRaw samples: `samples.tsv`.\n");
    return md.toString();
  }

  /** Writes the chart: mean ops/s per phase and size (groups) and layout (bars). */
  public void chart(Path svg) throws IOException {
    List<String> groups = new ArrayList<>();
    for (String phase : List.of("write", "read")) {
      for (int nodes : request.nodeCounts()) {
        groups.add(phase + " " + nodes + "n");
      }
    }
    double[][] values = new double[request.layouts().size()][groups.size()];
    for (int l = 0; l < request.layouts().size(); l++) {
      int g = 0;
      for (String phase : List.of("write", "read")) {
        for (int nodes : request.nodeCounts()) {
          DoubleSummaryStatistics s = stats(nodes, request.layouts().get(l), phase);
          values[l][g++] = s.getCount() == 0 ? 0 : s.getAverage();
        }
      }
    }
    BarChartSvg.write(svg, "Metadata throughput by nodes (seed 004 Fig. 7)", "ops/s, mean of"
        + " runs", groups, request.layouts().stream().map(MetadataLayoutUnderTest::label)
        .toList(), values);
  }

  private static String range(DoubleSummaryStatistics s) {
    return s.getCount() == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f (%.1f–%.1f)",
        s.getAverage(), s.getMin(), s.getMax());
  }

  private static String mean(DoubleSummaryStatistics s) {
    return s.getCount() == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", s.getAverage());
  }

  private static String num(OptionalDouble v) {
    return v.isPresent() ? String.format(Locale.ROOT, "%.2f", v.getAsDouble()) : "n/a";
  }
}
