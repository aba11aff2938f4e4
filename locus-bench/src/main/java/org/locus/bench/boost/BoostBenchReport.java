package org.locus.bench.boost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

import org.apache.commons.math3.distribution.TDistribution;
import org.locus.bench.report.ResultsFile;
import org.locus.bench.run.RunRecord;

/**
 * The BoostDFS bench's numbers from its results: per job the mean wall time of each layout
 * and their ratio, and which share of map tasks read local data (HDFS: data-local; BoostDFS:
 * superlocal, i.e. on the host of the block's REPLICATED replica); the geometric mean of the
 * disk-bound jobs' ratios, as the seed reports it; and how far the ratio can be trusted, an
 * approximate 95 % interval from the runs' spread.
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
   * An approximate 95 % confidence interval of {@link #ratio}, from the spread of each
   * layout's runs: the delta method on the log of the ratio of two independent means (relative
   * variance s²/(n·m²) of each mean), Student's t with Welch–Satterthwaite's degrees of
   * freedom, so symmetric around the ratio on a log scale.
   *
   * @return {low, high}, when both layouts have at least two successful runs that differ
   */
  public Optional<double[]> ratioInterval(String job) {
    double[] hdfs = wallMillis(job, BoostBenchCluster.HDFS);
    double[] boost = wallMillis(job, BoostBenchCluster.BOOST);
    if (hdfs.length < 2 || boost.length < 2) {
      return Optional.empty();
    }
    double a = relativeVarianceOfMean(boost);
    double b = relativeVarianceOfMean(hdfs);
    if (a + b == 0) {
      return Optional.empty();
    }
    double df = (a + b) * (a + b)
        / (a * a / (boost.length - 1) + b * b / (hdfs.length - 1));
    double t = new TDistribution(df).inverseCumulativeProbability(0.975);
    double ratio = ratio(job).orElseThrow();
    double spread = Math.exp(t * Math.sqrt(a + b));
    return Optional.of(new double[] {ratio / spread, ratio * spread});
  }

  private double[] wallMillis(String job, String layout) {
    return runs(job, layout).stream().mapToDouble(RunRecord::wallMillis).toArray();
  }

  /** @return s²/(n·m²): the variance of the mean over the mean's square */
  private static double relativeVarianceOfMean(double[] values) {
    double mean = Arrays.stream(values).average().orElseThrow();
    double squares = Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum();
    return squares / (values.length - 1) / values.length / (mean * mean);
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
        + " | BoostDFS / HDFS | ≈95 % interval | HDFS data-local maps"
        + " | BoostDFS superlocal maps |\n"
        + "|---|---|---|---|---|---|---|---|---|\n");
    List<String> diskBound = new ArrayList<>();
    for (String job : jobs) {
      boolean compute = COMPUTE_BOUND.contains(job);
      if (!compute) {
        diskBound.add(job);
      }
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
          job, compute ? "compute-bound" : "disk-bound",
          num(cpuPerSecond(job, BoostBenchCluster.HDFS), "%.2f"),
          seconds(meanMillis(job, BoostBenchCluster.HDFS)),
          seconds(meanMillis(job, BoostBenchCluster.BOOST)), num(ratio(job), "%.3f"),
          ratioInterval(job).map(i -> String.format(Locale.ROOT, "%.3f–%.3f", i[0], i[1]))
              .orElse("n/a"),
          percent(mapShare(job, BoostBenchCluster.HDFS, "DATA_LOCAL_MAPS")),
          percent(mapShare(job, BoostBenchCluster.BOOST, "SUPERLOCAL_MAPS"))));
    }
    md.append(String.format(Locale.ROOT, "%nGeometric mean of BoostDFS / HDFS over the"
        + " disk-bound jobs: **%s** (seed 001: 0.86). The kind is the seed's; the CPU column"
        + " says how busy the tasks kept the cores here (a node's tasks can use at most its"
        + " cores, and all nodes share the host's). The interval reflects only the spread of"
        + " the runs measured here (delta method on the log ratio, Welch's t).%n",
        num(geomean(diskBound), "%.3f")));
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
