package org.locus.bench.kat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import org.locus.bench.report.BarChartSvg;
import org.locus.bench.report.TextTable;
import org.locus.jobs.JobTimeline;

/** Turns the runs of {@code locus bench kat} into a Markdown table and an SVG chart. */
final class KatBenchReport {
  private static final List<String> JOBS = List.of("wordcount", "wordcount+combiner", "grep");

  private final String cluster;
  private final int sizeMib;
  private final int blockMib;
  private final int runs;
  private final List<KatComparison.Result> results;

  /** @param cluster one sentence saying what the cluster and its links are */
  KatBenchReport(String cluster, int sizeMib, int blockMib, int runs,
      List<KatComparison.Result> results) {
    this.cluster = cluster;
    this.sizeMib = sizeMib;
    this.blockMib = blockMib;
    this.runs = runs;
    this.results = results;
  }

  /** Writes kat-bench.md and kat-bench.svg into {@code dir}; returns the Markdown. */
  String write(File dir) throws IOException {
    List<String> jobs = JOBS.stream()
        .filter(job -> results.stream().anyMatch(r -> r.job().equals(job))).toList();
    boolean wire = results.stream().allMatch(r -> r.nativeRun().wireBytes() >= 0);
    StringBuilder md = new StringBuilder();
    md.append("# KAT benchmark: native placement vs key-aware placement\n\n");
    md.append(String.format("%s. %d MiB Zipf text corpus (20000 words, s = 1.0), block %d MiB,"
        + " replication 2, %d runs of each job and placement, side by side in one run."
        + " `wordcount` runs without a combiner (every occurrence is shuffled),"
        + " `wordcount+combiner` with it; `grep` is Grep's search job (regex `%s`). One reducer"
        + " per node in both placements.%n%n", cluster, sizeMib, blockMib, runs,
        KatBench.GREP_REGEX));
    md.append("| job | placement | wall s (median) | spread s (max-min) | shuffle |"
        + " cross-host shuffle |" + (wire ? " bytes on the wire |" : "")
        + " data-local maps | output identical |\n");
    md.append("|---|---|---|---|---|---|" + (wire ? "---|" : "") + "---|---|\n");
    double[][] wall = new double[2][jobs.size()];
    double[][] cross = new double[2][jobs.size()];
    double[][] sent = new double[2][jobs.size()];
    StringBuilder ratios = new StringBuilder();
    for (int j = 0; j < jobs.size(); j++) {
      String job = jobs.get(j);
      List<KatComparison.Result> ofJob = results.stream().filter(r -> r.job().equals(job))
          .toList();
      boolean identical = ofJob.stream().allMatch(KatComparison.Result::identical);
      for (int s = 0; s < 2; s++) {
        Function<KatComparison.Result, KatComparison.Side> side =
            s == 0 ? KatComparison.Result::nativeRun : KatComparison.Result::katRun;
        double[] times = ofJob.stream()
            .mapToDouble(r -> side.apply(r).outcome().wallMillis() / 1000.0).sorted().toArray();
        KatComparison.Side last = side.apply(ofJob.get(ofJob.size() - 1));
        wall[s][j] = median(times);
        cross[s][j] = ofJob.stream().mapToDouble(r -> side.apply(r).crossHostBytes())
            .average().orElse(0) / (1 << 20);
        sent[s][j] = ofJob.stream().mapToDouble(r -> side.apply(r).wireBytes())
            .average().orElse(0) / (1 << 20);
        md.append(String.format("| %s | %s | %.1f | %.1f | %s | %s |%s %d/%d | %s |%n", job,
            s == 0 ? "native" : "KAT", wall[s][j], times[times.length - 1] - times[0],
            TextTable.bytes(last.outcome().shuffleBytes()), TextTable.bytes(last.crossHostBytes()),
            wire ? " " + TextTable.bytes((long) (sent[s][j] * (1 << 20))) + " |" : "",
            last.outcome().dataLocalMaps(), last.outcome().totalMaps(),
            identical ? "yes" : "NO"));
      }
      ratios.append(String.format("| %s | %.3f | %s |%s%n", job, wall[1][j] / wall[0][j],
          ratio(cross[1][j], cross[0][j]), wire ? " " + ratio(sent[1][j], sent[0][j]) + " |"
          : ""));
    }
    md.append("\n| job | wall-time ratio KAT/native | cross-host shuffle ratio KAT/native |"
        + (wire ? " wire-bytes ratio KAT/native |" : "") + "\n");
    md.append("|---|---|---|" + (wire ? "---|" : "") + "\n").append(ratios);
    md.append("\n![wall time and cross-host shuffle](kat-bench.svg)\n\n");
    appendTimeline(md, jobs);
    if (wire) {
      md.append("Bytes on the wire: what the worker nodes' veth links sent while each job ran"
          + " (shuffle, HDFS output replication, heartbeats), read from the kernel's"
          + " counters.\n");
    } else {
      md.append("On loopback every link is fast and the two cores are the bottleneck, so wall"
          + " time mostly shows the CPU cost of the jobs; the cross-host shuffle column is what"
          + " a real or shaped network would pay for (`--cluster netns --link 10mbit` measures"
          + " it; seed 000 §3.5: at 10 Mbps the shuffle dominated).\n");
    }
    Files.writeString(new File(dir, "kat-bench.md").toPath(), md.toString(),
        StandardCharsets.UTF_8);
    List<String> categories = new ArrayList<>();
    jobs.forEach(job -> categories.add(job + " wall s"));
    jobs.forEach(job -> categories.add(job + " cross MiB"));
    double[][] bars = new double[2][2 * jobs.size()];
    for (int s = 0; s < 2; s++) {
      for (int j = 0; j < jobs.size(); j++) {
        bars[s][j] = wall[s][j];
        bars[s][jobs.size() + j] = cross[s][j];
      }
    }
    BarChartSvg.write(new File(dir, "kat-bench.svg").toPath(),
        "KAT vs native: wall time (s) and cross-host shuffle (MiB)", "seconds / MiB",
        categories, List.of("native", "KAT"), bars);
    return md.toString();
  }

  /**
   * Where each job's time went (medians over the runs), read from the task reports: what
   * profiles a placement that is slower than the other on the same work.
   */
  private void appendTimeline(StringBuilder md, List<String> jobs) {
    md.append("Where the time went (medians, seconds; from the jobs' task reports): AM launch ="
        + " submission to job start, to first map = job start to the first map's start,"
        + " maps = first map start to last map end, after maps = last map end to job end,"
        + " first reducer = its start after the first map's start.\n\n");
    md.append("| job | placement | AM launch | to first map | maps | after maps | map tasks |"
        + " mean map | first reducer |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (String job : jobs) {
      List<KatComparison.Result> ofJob = results.stream().filter(r -> r.job().equals(job))
          .toList();
      for (int s = 0; s < 2; s++) {
        Function<KatComparison.Result, KatComparison.Side> side =
            s == 0 ? KatComparison.Result::nativeRun : KatComparison.Result::katRun;
        List<JobTimeline> lines = ofJob.stream().map(r -> side.apply(r).outcome().timeline())
            .filter(JobTimeline::known).toList();
        if (lines.isEmpty()) {
          continue;
        }
        md.append(String.format("| %s | %s | %.1f | %.1f | %.1f | %.1f | %.0f | %.1f | %.1f |%n",
            job, s == 0 ? "native" : "KAT",
            medianOf(lines, JobTimeline::launchMillis), medianOf(lines, JobTimeline::firstMapMillis),
            medianOf(lines, JobTimeline::mapPhaseMillis),
            medianOf(lines, JobTimeline::afterMapsMillis),
            medianOf(lines, t -> t.maps() * 1000L), medianOf(lines, JobTimeline::meanMapMillis),
            medianOf(lines, JobTimeline::firstReduceStartMillis)));
      }
    }
    md.append("\n");
  }

  private static double medianOf(List<JobTimeline> lines, ToLongFunction<JobTimeline> field) {
    return median(lines.stream().mapToDouble(t -> field.applyAsLong(t) / 1000.0).sorted()
        .toArray());
  }

  private static String ratio(double kat, double nativeValue) {
    return nativeValue == 0 ? "-" : String.format("%.4f", kat / nativeValue);
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
