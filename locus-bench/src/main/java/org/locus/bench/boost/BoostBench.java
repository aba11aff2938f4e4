package org.locus.bench.boost;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.locus.bench.BenchException;
import org.locus.bench.report.BarChartSvg;
import org.locus.bench.report.ResultsFile;
import org.locus.bench.run.BenchRunner;
import org.locus.bench.suite.BenchJob;
import org.locus.bench.suite.BenchSuite;
import org.locus.bench.suite.Suites;

/**
 * {@code locus bench boost} (issue 12 item 6): BoostDFS against HDFS at the same capacity or
 * the same availability, side by side in one run. Each layout gets a netns cluster of its own
 * with the same throttled devices ({@link BoostBenchCluster}); the bench runner runs the same
 * jobs on the same generated input on each ({@code results.json}); {@code report.md} gives per
 * job the mean wall times, their ratio with an approximate interval, the share of local /
 * superlocal maps, and the disk-bound jobs'
 * geometric mean ({@link BoostBenchReport}), with a chart.
 */
public final class BoostBench {
  private final BoostBenchRequest request;
  private final PrintStream progress;

  public BoostBench(BoostBenchRequest request, PrintStream progress) {
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
    layouts.put(BoostBenchCluster.HDFS, new Configuration(false));
    layouts.put(BoostBenchCluster.BOOST, new Configuration(false));
    File clusters = new File(out, "clusters");
    BenchRunner runner = new BenchRunner(suite, layouts, "netns",
        (label, keys) -> new BoostBenchCluster(label, new File(clusters, label), request,
            progress), request.runs(), request.warmups(), 2, progress);
    ResultsFile results = (request.interleave() ? runner.interleaved() : runner)
        .run(out, request.resume());
    List<String> jobs = suite.jobs().stream().map(BenchJob::id).toList();
    BoostBenchReport report = new BoostBenchReport(results);
    double[][] seconds = new double[2][jobs.size()];
    for (int j = 0; j < jobs.size(); j++) {
      seconds[0][j] = report.meanMillis(jobs.get(j), BoostBenchCluster.HDFS).orElse(0) / 1000;
      seconds[1][j] = report.meanMillis(jobs.get(j), BoostBenchCluster.BOOST).orElse(0) / 1000;
    }
    BarChartSvg.write(new File(out, "boost-bench.svg").toPath(),
        "BoostDFS (" + request.boostCopies() + " copies) vs HDFS (" + request.copies()
            + ") at the same " + request.comparison().label(),
        "mean wall time, s", jobs, List.of("HDFS", "BoostDFS"), seconds);
    StringBuilder md = new StringBuilder("# BoostDFS bench\n\n");
    boolean capacity = request.comparison() == BoostBenchRequest.Comparison.CAPACITY;
    md.append(String.format(Locale.ROOT, "Suite `%s`, %d run(s) per layout%s, two %d-node netns"
        + " clusters (YARN, %s), three devices per node, each throttled to %d MB/s read and write"
        + " (loop devices under cgroup throttles%s: **emulated** disks). `hdfs`: three DISK"
        + " volumes, replication %d. `boost`: one DISK volume and a REPLICATED volume"
        + " (MorphStore copies=2 over the other two devices), the bench root SUPERLOCAL with %d"
        + " copies (replication %d, one replica on REPLICATED storage), jobs under the Locus AM"
        + " with superlocal map placement. %s%n%n", request.suite(), request.runs(),
        request.warmups() == 0 ? ""
            : " after " + request.warmups() + " unrecorded warm-up run(s)",
        request.nodes(), request.interleave()
            ? "both up at once, each run of a job alternating between them, the order reversed"
                + " every other run" : "one after the other",
        request.diskRate() / 1_000_000, request.diskModel().emulated()
            ? ", each over an " + request.diskModel().label() + " whose seeks and rotation"
                + " are **modelled**" : "",
        request.copies(), request.boostCopies(),
        request.boostCopies() - 1,
        capacity ? "Both keep " + request.copies() + " device copies of every block: the same"
            + " capacity."
            : "Both keep every block on " + request.copies() + " nodes: the same availability"
            + " against node loss, BoostDFS at one device copy more."));
    md.append(String.format(Locale.ROOT, "Each node offers its containers %d MiB; the jobs"
        + " ask for %s", request.containerBytes() >> 20, request.taskMemory().describe()));
    request.jobKeys().forEach((key, value) -> md.append(", `").append(key).append('=')
        .append(value).append('`'));
    md.append(": ").append(request.taskMemory().mapsPerNode(request.containerBytes()))
        .append(".\n\n");
    md.append(report.table(jobs));
    md.append("\n![mean wall time per job and layout](boost-bench.svg)\n");
    File file = new File(out, "report.md");
    Files.writeString(file.toPath(), md, StandardCharsets.UTF_8);
    return file;
  }
}
