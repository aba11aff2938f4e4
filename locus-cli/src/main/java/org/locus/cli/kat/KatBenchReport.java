package org.locus.cli.kat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.function.ToDoubleFunction;

import org.locus.cli.TextTable;
import org.locus.cli.bench.BarChartSvg;

/** Turns the runs of {@code locus bench kat} into a Markdown table and an SVG chart. */
final class KatBenchReport {
  private static final List<String> JOBS = List.of("wordcount", "grep");

  private final int nodes;
  private final int sizeMib;
  private final int runs;
  private final List<KatComparison.Result> results;

  KatBenchReport(int nodes, int sizeMib, int runs, List<KatComparison.Result> results) {
    this.nodes = nodes;
    this.sizeMib = sizeMib;
    this.runs = runs;
    this.results = results;
  }

  /** Writes kat-bench.md and kat-bench.svg into {@code dir}; returns the Markdown. */
  String write(File dir) throws IOException {
    StringBuilder md = new StringBuilder();
    md.append("# KAT benchmark: native placement vs key-aware placement\n\n");
    md.append(String.format("Embedded cluster of %d nodes (one loopback address each, YARN),"
        + " %d MiB Zipf text corpus (20000 words, s = 1.0), block 1 MiB, replication 2,"
        + " %d runs of each job and placement, side by side in one run. WordCount runs without"
        + " a combiner; Grep is its search job (regex `%s`). One reducer per node in both.%n%n",
        nodes, sizeMib, runs, KatBenchCommand.GREP_REGEX));
    md.append("| job | placement | wall s (median) | spread s (max-min) | shuffle |"
        + " cross-host shuffle | data-local maps | output identical |\n");
    md.append("|---|---|---|---|---|---|---|---|\n");
    double[][] wall = new double[2][JOBS.size()];
    double[][] cross = new double[2][JOBS.size()];
    StringBuilder ratios = new StringBuilder();
    for (int j = 0; j < JOBS.size(); j++) {
      String job = JOBS.get(j);
      List<KatComparison.Result> ofJob = results.stream().filter(r -> r.job().equals(job))
          .toList();
      boolean identical = ofJob.stream().allMatch(KatComparison.Result::identical);
      for (int side = 0; side < 2; side++) {
        final int s = side;
        ToDoubleFunction<KatComparison.Result> seconds = r ->
            (s == 0 ? r.nativeRun() : r.katRun()).outcome().wallMillis() / 1000.0;
        double[] times = ofJob.stream().mapToDouble(seconds).sorted().toArray();
        KatComparison.Side last = s == 0 ? ofJob.get(ofJob.size() - 1).nativeRun()
            : ofJob.get(ofJob.size() - 1).katRun();
        wall[s][j] = median(times);
        cross[s][j] = ofJob.stream().mapToDouble(r ->
            (s == 0 ? r.nativeRun() : r.katRun()).crossHostBytes()).average().orElse(0)
            / (1 << 20);
        md.append(String.format("| %s | %s | %.1f | %.1f | %s | %s | %d/%d | %s |%n", job,
            s == 0 ? "native" : "KAT", wall[s][j], times[times.length - 1] - times[0],
            TextTable.bytes(last.outcome().shuffleBytes()), TextTable.bytes(last.crossHostBytes()),
            last.outcome().dataLocalMaps(), last.outcome().totalMaps(),
            identical ? "yes" : "NO"));
      }
      ratios.append(String.format("| %s | %.3f | %s |%n", job, wall[1][j] / wall[0][j],
          cross[0][j] == 0 ? "-" : String.format("%.4f", cross[1][j] / cross[0][j])));
    }
    md.append("\n| job | wall-time ratio KAT/native | cross-host shuffle ratio KAT/native |\n");
    md.append("|---|---|---|\n").append(ratios);
    md.append("\n![wall time and cross-host shuffle](kat-bench.svg)\n\n");
    md.append("On loopback every link is fast and the two cores are the bottleneck, so wall"
        + " time mostly shows the CPU cost of the jobs; the cross-host shuffle column is what a"
        + " real (or shaped) network would pay for (seed 000 §3.5: at 10 Mbps the shuffle"
        + " dominated).\n");
    Files.writeString(new File(dir, "kat-bench.md").toPath(), md.toString(),
        StandardCharsets.UTF_8);
    BarChartSvg.write(new File(dir, "kat-bench.svg").toPath(),
        "KAT vs native: wall time (s) and cross-host shuffle (MiB)", "seconds / MiB",
        List.of("wordcount wall s", "grep wall s", "wordcount cross MiB", "grep cross MiB"),
        List.of("native", "KAT"),
        new double[][] {
            {wall[0][0], wall[0][1], cross[0][0], cross[0][1]},
            {wall[1][0], wall[1][1], cross[1][0], cross[1][1]}});
    return md.toString();
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
