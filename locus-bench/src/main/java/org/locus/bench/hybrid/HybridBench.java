package org.locus.bench.hybrid;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.locus.bench.BenchException;
import org.locus.bench.report.BarChartSvg;
import org.locus.bench.report.ResultsFile;
import org.locus.bench.run.BenchRunner;
import org.locus.bench.run.RunRecord;
import org.locus.bench.suite.BenchSuite;
import org.locus.bench.suite.Suites;

/**
 * {@code locus bench hybrid}: the hybrid profile against SSD-only and HDD-only layouts (issue
 * 14 item 6), side by side in one run. Each layout gets a netns cluster of its own (devices
 * throttled at the SSD or HDD rate, see {@link StorageLayout}); the bench runner runs the same
 * jobs on the same generated input on each ({@code results.json}), and the kernel's device
 * counters give the bytes each layout wrote to SSD and to HDD devices. {@code report.md} holds
 * mean wall time per job and layout (min–max), the ratio to SSD-only, and the writes.
 */
public final class HybridBench {
  private final HybridBenchRequest request;
  private final PrintStream progress;

  public HybridBench(HybridBenchRequest request, PrintStream progress) {
    this.request = request;
    this.progress = progress;
  }

  /** @return the report file */
  public File run() throws Exception {
    BenchSuite suite = Suites.select(request.suite(), request.jobs(), request.nodes());
    File out = request.out().getAbsoluteFile();
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new BenchException("cannot create " + out);
    }
    Map<String, Configuration> layouts = new LinkedHashMap<>();
    for (String label : HybridBenchCluster.labels()) {
      layouts.put(label, new Configuration(false));
    }
    Map<StorageLayout, Map<String, Long>> writes = new LinkedHashMap<>();
    File clusters = new File(out, "clusters");
    ResultsFile results = new BenchRunner(suite, layouts, "netns",
        (label, keys) -> new HybridBenchCluster(StorageLayout.of(label),
            new File(clusters, label), request, writes::put, progress),
        request.runs(), 2, progress).run(out, false);
    File report = new File(out, "report.md");
    Files.writeString(report.toPath(), report(suite, results, writes), StandardCharsets.UTF_8);
    chart(suite, results, new File(out, "hybrid-bench.svg"));
    return report;
  }

  /** Mean wall time per job (groups) and layout (bars). */
  private static void chart(BenchSuite suite, ResultsFile results, File svg)
      throws IOException {
    List<String> jobs = suite.jobs().stream().map(j -> j.id()).toList();
    List<String> labels = HybridBenchCluster.labels();
    double[][] seconds = new double[labels.size()][jobs.size()];
    for (int l = 0; l < labels.size(); l++) {
      for (int j = 0; j < jobs.size(); j++) {
        seconds[l][j] = mean(results, jobs.get(j), labels.get(l)) / 1000;
      }
    }
    BarChartSvg.write(svg.toPath(), "Hybrid profile vs SSD-only and HDD-only (emulated devices)",
        "mean wall time, s", jobs, labels, seconds);
  }

  private String report(BenchSuite suite, ResultsFile results,
      Map<StorageLayout, Map<String, Long>> writes) {
    StringBuilder md = new StringBuilder();
    md.append("# Hybrid profile bench\n\n");
    md.append(String.format("Suite `%s`, jobs %s, %d run(s) per layout, %d-node netns clusters"
        + " (one per layout, YARN), SSD devices %s/s, HDD devices %s/s (loop devices throttled"
        + " by cgroup: **emulated** SSD and HDD, not real drives).%n%n", request.suite(),
        suite.jobs().stream().map(j -> j.id()).toList(), request.runs(), request.nodes(),
        mib(request.ssdRate()), mib(request.hddRate())));
    md.append("| job | layout | mean s | min–max s | / ssd-only | ok |\n");
    md.append("|---|---|---|---|---|---|\n");
    for (var job : suite.jobs()) {
      double base = mean(results, job.id(), StorageLayout.SSD_ONLY.label());
      for (String label : HybridBenchCluster.labels()) {
        List<Long> walls = walls(results, job.id(), label);
        double mean = mean(results, job.id(), label);
        boolean ok = results.records().stream().filter(r -> r.job().equals(job.id())
            && r.feature().equals(label)).allMatch(RunRecord::succeeded);
        md.append(String.format("| %s | %s | %.1f | %.1f–%.1f | %.3f | %s |%n", job.id(), label,
            mean / 1000, walls.stream().mapToLong(Long::longValue).min().orElse(0) / 1000.0,
            walls.stream().mapToLong(Long::longValue).max().orElse(0) / 1000.0,
            base > 0 ? mean / base : Double.NaN, ok ? "yes" : "NO"));
      }
    }
    md.append("\n![mean wall time per job and layout](hybrid-bench.svg)\n");
    md.append("\nBytes written to the devices while each layout's cluster ran (input generation"
        + " and every run; kernel counters of the loop devices):\n\n");
    md.append("| layout | SSD devices MiB | HDD devices MiB |\n|---|---|---|\n");
    for (String label : HybridBenchCluster.labels()) {
      Map<String, Long> w = writes.getOrDefault(StorageLayout.of(label), Map.of());
      md.append(String.format("| %s | %.1f | %.1f |%n", label,
          w.getOrDefault("ssd", 0L) / 1048576.0, w.getOrDefault("hdd", 0L) / 1048576.0));
    }
    return md.toString();
  }

  private static List<Long> walls(ResultsFile results, String job, String layout) {
    List<Long> walls = new ArrayList<>();
    for (RunRecord r : results.records()) {
      if (r.job().equals(job) && r.feature().equals(layout) && r.succeeded()) {
        walls.add(r.wallMillis());
      }
    }
    return walls;
  }

  private static double mean(ResultsFile results, String job, String layout) {
    return walls(results, job, layout).stream().mapToLong(Long::longValue).average()
        .orElse(0);
  }

  private static String mib(long bytesPerSecond) {
    return bytesPerSecond % (1 << 20) == 0 ? bytesPerSecond / (1 << 20) + " MiB"
        : bytesPerSecond / 1_000_000 + " MB";
  }
}
