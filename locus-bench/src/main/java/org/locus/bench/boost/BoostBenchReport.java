package org.locus.bench.boost;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;

import org.locus.bench.report.ResultsFile;
import org.locus.bench.run.RunRecord;

/**
 * The BoostDFS bench's numbers from its results: per job the mean wall time of each layout
 * and their ratio, and which share of map tasks read local data (HDFS: data-local; BoostDFS:
 * superlocal, i.e. on the host of the block's REPLICATED replica); the geometric mean of the
 * disk-bound jobs' ratios, as the seed reports it.
 */
public final class BoostBenchReport {
  /** Jobs whose time is mostly computation (seed 001 §4.6); every other job is disk-bound. */
  public static final Set<String> COMPUTE_BOUND = Set.of("classification", "k-means");

  private final ResultsFile results;

  public BoostBenchReport(ResultsFile results) {
    this.results = results;
  }

  /** @return mean wall milliseconds of the job's successful runs in the layout */
  public OptionalDouble meanMillis(String job, String layout) {
    return runs(job, layout).stream().mapToLong(RunRecord::wallMillis).average();
  }

  /** @return BoostDFS's mean wall time over HDFS's, when both have a successful run */
  public OptionalDouble ratio(String job) {
    OptionalDouble hdfs = meanMillis(job, BoostBenchCluster.HDFS);
    OptionalDouble boost = meanMillis(job, BoostBenchCluster.BOOST);
    return hdfs.isPresent() && boost.isPresent() && hdfs.getAsDouble() > 0
        ? OptionalDouble.of(boost.getAsDouble() / hdfs.getAsDouble()) : OptionalDouble.empty();
  }

  /**
   * @param counter {@code DATA_LOCAL_MAPS} or {@code SUPERLOCAL_MAPS}
   * @return the counter's share of launched maps over the job's runs in the layout
   */
  public OptionalDouble mapShare(String job, String layout, String counter) {
    long maps = 0;
    long local = 0;
    for (RunRecord r : runs(job, layout)) {
      maps += r.counters().getOrDefault("TOTAL_LAUNCHED_MAPS", 0L);
      local += r.counters().getOrDefault(counter, 0L);
    }
    return maps == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) local / maps);
  }

  /**
   * @return CPU seconds the job's tasks used per second of its wall time, over its successful
   *     runs in the layout ({@code CPU_MILLISECONDS}): how compute-bound it was on this
   *     cluster, whatever the seed calls it
   */
  public OptionalDouble cpuPerSecond(String job, String layout) {
    long cpu = 0;
    long wall = 0;
    for (RunRecord r : runs(job, layout)) {
      cpu += r.counters().getOrDefault("CPU_MILLISECONDS", 0L);
      wall += r.wallMillis();
    }
    return wall == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) cpu / wall);
  }

  /** @return the geometric mean of the ratios of the given jobs that have one */
  public OptionalDouble geomean(List<String> jobs) {
    List<Double> logs = new ArrayList<>();
    for (String job : jobs) {
      ratio(job).ifPresent(r -> logs.add(Math.log(r)));
    }
    return logs.isEmpty() ? OptionalDouble.empty()
        : OptionalDouble.of(Math.exp(logs.stream().mapToDouble(Double::doubleValue).average()
            .orElseThrow()));
  }

  /** @return the markdown table, one row per job, and the disk-bound geometric mean */
  public String table(List<String> jobs) {
    StringBuilder md = new StringBuilder();
    md.append("| job | kind (seed) | task CPU s per s (HDFS) | HDFS s | BoostDFS s"
        + " | BoostDFS / HDFS | HDFS data-local maps | BoostDFS superlocal maps |\n"
        + "|---|---|---|---|---|---|---|---|\n");
    List<String> diskBound = new ArrayList<>();
    for (String job : jobs) {
      boolean compute = COMPUTE_BOUND.contains(job);
      if (!compute) {
        diskBound.add(job);
      }
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", job,
          compute ? "compute-bound" : "disk-bound",
          num(cpuPerSecond(job, BoostBenchCluster.HDFS), "%.2f"),
          seconds(meanMillis(job, BoostBenchCluster.HDFS)),
          seconds(meanMillis(job, BoostBenchCluster.BOOST)), num(ratio(job), "%.3f"),
          percent(mapShare(job, BoostBenchCluster.HDFS, "DATA_LOCAL_MAPS")),
          percent(mapShare(job, BoostBenchCluster.BOOST, "SUPERLOCAL_MAPS"))));
    }
    md.append(String.format(Locale.ROOT, "%nGeometric mean of BoostDFS / HDFS over the"
        + " disk-bound jobs: **%s** (seed 001: 0.86). The kind is the seed's; the CPU column"
        + " says how busy the tasks kept the cores here (a node's tasks can use at most its"
        + " cores, and all nodes share the host's).%n", num(geomean(diskBound), "%.3f")));
    return md.toString();
  }

  private List<RunRecord> runs(String job, String layout) {
    return results.records().stream().filter(r -> r.job().equals(job)
        && r.feature().equals(layout) && r.succeeded()).toList();
  }

  private static String seconds(OptionalDouble millis) {
    return millis.isPresent() ? String.format(Locale.ROOT, "%.1f", millis.getAsDouble() / 1000)
        : "n/a";
  }

  private static String percent(OptionalDouble share) {
    return share.isPresent() ? String.format(Locale.ROOT, "%.0f %%", 100 * share.getAsDouble())
        : "n/a";
  }

  private static String num(OptionalDouble value, String format) {
    return value.isPresent() ? String.format(Locale.ROOT, format, value.getAsDouble()) : "n/a";
  }
}
