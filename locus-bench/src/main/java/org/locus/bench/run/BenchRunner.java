package org.locus.bench.run;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.locus.bench.report.ResultsFile;
import org.locus.bench.suite.BenchJob;
import org.locus.bench.suite.BenchSuite;
import org.locus.boost.scheduling.SuperlocalTaskPlacement;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobCatalog;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.data.DataGenerators;
import org.locus.mapreduce.am.LocalityTier;

/**
 * Runs every job of a suite under every feature set, {@code runs} times, side by side: one
 * cluster per feature set (started with its keys), inputs generated once per cluster (same
 * seed, so every feature set reads the same data), then run 1 of every job, run 2, ...; one
 * cluster after the other, or {@link #interleaved()} all at once, alternating. Writes
 * {@code results.json} after every run; with resume, skips the runs an earlier
 * {@code results.json} in the same directory already has. On a cluster that places by key,
 * the jobs KAT has a hint for run key-aware over their input imported as a KAT dataset
 * ({@link KeyAwareRuns}). Optional warm-up runs of every job precede a cluster's measured runs
 * and are not recorded: the first runs on a fresh cluster pay for cold JVM class data and
 * daemon caches, which otherwise inflates run 1 of every layout and widens the spread.
 */
public final class BenchRunner {
  private static final long SEED = 42;

  /**
   * The {@link RunRecord#COUNTERS} read from the Locus AM's tier counters: tier name to record
   * key. A record keeps the name the AM's counter had before the tiers, so results files and
   * their reports compare across versions.
   */
  static final Map<String, String> RECORD_KEY_OF_TIER =
      Map.of(SuperlocalTaskPlacement.SUPERLOCAL.name(), "SUPERLOCAL_MAPS");

  private final BenchSuite suite;
  private final Map<String, Configuration> features;
  private final String clusterName;
  private final BenchCluster.Factory clusters;
  private final int runs;
  private final int reducers;
  private final int warmups;
  private final PrintStream progress;
  private final boolean interleave;

  /**
   * @param features feature set name to its keys, in report order ({@code none} = no keys)
   * @param clusterName how the clusters are made, for results ({@code embedded}, {@code local})
   * @param progress where progress lines go
   */
  public BenchRunner(BenchSuite suite, Map<String, Configuration> features, String clusterName,
      BenchCluster.Factory clusters, int runs, int reducers, PrintStream progress) {
    this(suite, features, clusterName, clusters, runs, 0, reducers, progress);
  }

  /**
   * @param warmups unrecorded runs of every job on each cluster before its measured runs
   */
  public BenchRunner(BenchSuite suite, Map<String, Configuration> features, String clusterName,
      BenchCluster.Factory clusters, int runs, int warmups, int reducers,
      PrintStream progress) {
    this(suite, features, clusterName, clusters, runs, warmups, reducers, progress, false);
  }

  private BenchRunner(BenchSuite suite, Map<String, Configuration> features, String clusterName,
      BenchCluster.Factory clusters, int runs, int warmups, int reducers, PrintStream progress,
      boolean interleave) {
    if (warmups < 0) {
      throw new IllegalArgumentException("warm-up runs must be 0 or more, not " + warmups);
    }
    this.warmups = warmups;
    this.interleave = interleave;
    this.suite = suite;
    this.features = new LinkedHashMap<>(features);
    this.clusterName = clusterName;
    this.clusters = clusters;
    this.runs = runs;
    this.reducers = reducers;
    this.progress = progress;
  }

  /**
   * Runs every layout's clusters at once and alternates them: run r of a job on every layout,
   * in one order on odd runs and the reverse on even ones, then the next job. Whatever drifts
   * on the host while the bench runs (other load, caches, the kernel's own work) then falls on
   * every layout alike, instead of on whichever cluster came last.
   */
  public BenchRunner interleaved() {
    return new BenchRunner(suite, features, clusterName, clusters, runs, warmups, reducers,
        progress, true);
  }

  /** Runs the bench into {@code out}; returns the results. */
  public ResultsFile run(File out, boolean resume) throws Exception {
    out.mkdirs();
    File resultsFile = new File(out, "results.json");
    ResultsFile results = new ResultsFile(suite.name(), clusterName,
        new ArrayList<>(features.keySet()), runs,
        suite.jobs().stream().map(BenchJob::id).toList());
    if (resume && resultsFile.isFile()) {
      results.resumeFrom(resultsFile);
    }
    Progress counter = new Progress(features.size() * runs * suite.jobs().size());
    JobCatalog catalog = new JobCatalog();
    List<String> pending = new ArrayList<>();
    for (String feature : features.keySet()) {
      if (allDone(results, feature)) {
        counter.index += runs * suite.jobs().size();
        progress.printf("[%d/%d] feature %s: every run already in %s, skipped%n", counter.index,
            counter.total, feature, resultsFile);
      } else {
        pending.add(feature);
      }
    }
    if (interleave) {
      List<Layout> layouts = new ArrayList<>();
      try {
        for (String feature : pending) {
          layouts.add(prepare(catalog, feature));
        }
        for (int run = 1; run <= runs; run++) {
          for (BenchJob job : suite.jobs()) {
            List<Layout> order = new ArrayList<>(layouts);
            if (run % 2 == 0) {
              Collections.reverse(order);
            }
            for (Layout layout : order) {
              measure(catalog, layout, job, run, results, resultsFile, counter);
            }
          }
        }
      } finally {
        // last started, first stopped: a netns cluster's daemons run in mount namespaces
        // copied from the host's, so they hold the mounts of every cluster started before
        // theirs, and the earlier cluster's devices are only released once they are gone
        Collections.reverse(layouts);
        for (Layout layout : layouts) {
          layout.cluster.close();
        }
      }
    } else {
      for (String feature : pending) {
        try (Layout layout = prepare(catalog, feature)) {
          for (int run = 1; run <= runs; run++) {
            for (BenchJob job : suite.jobs()) {
              measure(catalog, layout, job, run, results, resultsFile, counter);
            }
          }
        }
      }
    }
    results.write(resultsFile);
    return results;
  }

  /** Where the runner is in the bench: runs counted, runs executed, when it started. */
  private static final class Progress {
    final int total;
    final long started = System.nanoTime();
    int index;
    int executed;

    Progress(int total) {
      this.total = total;
    }
  }

  /** A feature set's running cluster with its generated inputs, warmed up. */
  private static final class Layout implements AutoCloseable {
    final String feature;
    final BenchCluster cluster;
    final FileSystem fs;
    final Map<String, Path> inputs;
    final Map<String, KeyAwareRuns.Dataset> datasets;
    /** by run, the job outputs so far (a job may read an earlier job's) */
    final Map<Integer, Map<String, Path>> outputs = new HashMap<>();

    Layout(String feature, BenchCluster cluster, FileSystem fs, Map<String, Path> inputs,
        Map<String, KeyAwareRuns.Dataset> datasets) {
      this.feature = feature;
      this.cluster = cluster;
      this.fs = fs;
      this.inputs = inputs;
      this.datasets = datasets;
    }

    @Override
    public void close() {
      cluster.close();
    }
  }

  /** Starts the feature set's cluster, generates its inputs and warms it up. */
  private Layout prepare(JobCatalog catalog, String feature) throws Exception {
    Configuration keys = features.get(feature);
    BenchCluster cluster = clusters.start(feature, keys);
    try {
      Configuration conf = cluster.conf();
      FileSystem fs = FileSystem.get(conf);
      Path root = cluster.root();
      Map<String, Path> inputs = generateInputs(fs, root);
      KeyAwareRuns keyAware = KeyAwareRuns.placesByKey(keys)
          || KeyAwareRuns.placesByKey(conf) ? new KeyAwareRuns(conf, root, progress) : null;
      Map<String, KeyAwareRuns.Dataset> datasets = keyAware == null ? Map.of()
          : importDatasets(keyAware, inputs);
      warmUp(catalog, cluster, feature, fs, root, inputs, datasets);
      return new Layout(feature, cluster, fs, inputs, datasets);
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
  }

  /** Run {@code run} of a job on a layout, timed and recorded, unless results have it. */
  private void measure(JobCatalog catalog, Layout layout, BenchJob job, int run,
      ResultsFile results, File resultsFile, Progress counter) throws Exception {
    counter.index++;
    Path output = new Path(layout.cluster.root(), "out/run-" + run + "/" + job.id());
    Map<String, Path> outputs = layout.outputs.computeIfAbsent(run, r -> new HashMap<>());
    outputs.put(job.id(), output);
    if (results.done(job.id(), layout.feature, run)) {
      progress.printf("[%d/%d] %s %s run %d: done earlier, skipped%n", counter.index,
          counter.total, layout.feature, job.id(), run);
      return;
    }
    KeyAwareRuns.Dataset dataset = layout.datasets.get(job.id());
    Path input = dataset != null ? dataset.path() : inputOf(job, layout.inputs, outputs);
    clearBefore(layout.cluster, layout.fs, output);
    Map<String, LinkBytes> linksBefore = layout.cluster.linkBytes();
    long start = System.nanoTime();
    JobResult result = launch(catalog, layout.cluster.conf(), job, dataset, input, output);
    long wall = (System.nanoTime() - start) / 1_000_000;
    results.add(new RunRecord(job.id(), layout.feature, run, result.passed(), wall,
        dataset != null, counters(result), carried(linksBefore, layout.cluster.linkBytes())));
    results.write(resultsFile);
    counter.executed++;
    long elapsed = (System.nanoTime() - counter.started) / 1_000_000_000;
    long left = elapsed * (counter.total - counter.index) / Math.max(1, counter.executed);
    progress.printf("[%d/%d] %s %s run %d: %s in %.1f s (elapsed %s, ~%s left)%n",
        counter.index, counter.total, layout.feature, job.id(), run,
        result.passed() ? "ok" : "FAILED " + result.problems(), wall / 1000.0,
        duration(elapsed), duration(left));
  }

  /** Runs every job {@link #warmups} times on the cluster, unrecorded, its outputs deleted. */
  private void warmUp(JobCatalog catalog, BenchCluster cluster, String feature, FileSystem fs,
      Path root, Map<String, Path> inputs, Map<String, KeyAwareRuns.Dataset> datasets)
      throws Exception {
    for (int warmup = 1; warmup <= warmups; warmup++) {
      Map<String, Path> outputs = new HashMap<>();
      Path dir = new Path(root, "out/warmup-" + warmup);
      for (BenchJob job : suite.jobs()) {
        Path output = new Path(dir, job.id());
        outputs.put(job.id(), output);
        KeyAwareRuns.Dataset dataset = datasets.get(job.id());
        Path input = dataset != null ? dataset.path() : inputOf(job, inputs, outputs);
        clearBefore(cluster, fs, output);
        long start = System.nanoTime();
        JobResult result = launch(catalog, cluster.conf(), job, dataset, input, output);
        progress.printf("[warm-up %d/%d] %s %s: %s in %.1f s, not recorded%n", warmup, warmups,
            feature, job.id(), result.passed() ? "ok" : "FAILED " + result.problems(),
            (System.nanoTime() - start) / 1e9);
      }
      fs.delete(dir, true);
    }
  }

  /** Before a run, untimed: the job's old output deleted, the cluster's cached data evicted. */
  private static void clearBefore(BenchCluster cluster, FileSystem fs, Path output)
      throws IOException {
    fs.delete(output, true);
    cluster.evictCachedData();
  }

  /** One run of a job, to be timed. */
  private JobResult launch(JobCatalog catalog, Configuration conf, BenchJob job,
      KeyAwareRuns.Dataset dataset, Path input, Path output) throws Exception {
    JobArguments arguments = dataset != null ? dataset.arguments(job, reducers)
        : new JobArguments(job.options(), reducers);
    return catalog.get(job.job()).run(new Configuration(conf), input, output, arguments);
  }

  private boolean allDone(ResultsFile results, String feature) {
    for (int run = 1; run <= runs; run++) {
      for (BenchJob job : suite.jobs()) {
        if (!results.done(job.id(), feature, run)) {
          return false;
        }
      }
    }
    return true;
  }

  private Map<String, Path> generateInputs(FileSystem fs, Path root) throws Exception {
    Map<String, Path> inputs = new HashMap<>();
    DataGenerators generators = new DataGenerators();
    for (BenchJob job : suite.jobs()) {
      if (job.input().startsWith("kind:")) {
        String kind = job.input().substring(5);
        String key = kind + "-" + job.inputBytes();
        if (!inputs.containsKey(key)) {
          Path dir = new Path(root, "input/" + key);
          fs.delete(dir, true);
          progress.printf("generating %s: %d bytes of %s%n", dir, job.inputBytes(), kind);
          generators.get(kind).write(fs, dir, job.inputBytes(), 4, SEED);
          inputs.put(key, dir);
        }
      }
    }
    return inputs;
  }

  /** @return by job id, the KAT datasets the suite's key-aware jobs read */
  private Map<String, KeyAwareRuns.Dataset> importDatasets(KeyAwareRuns keyAware,
      Map<String, Path> inputs) throws IOException {
    Map<String, KeyAwareRuns.Dataset> datasets = new HashMap<>();
    for (BenchJob job : suite.jobs()) {
      Optional<String> hint = KeyAwareRuns.hintOf(job);
      if (hint.isPresent() && job.input().startsWith("kind:")) {
        datasets.put(job.id(), keyAware.datasetOf(inputOf(job, inputs, Map.of()), hint.get()));
      }
    }
    return datasets;
  }

  private static Path inputOf(BenchJob job, Map<String, Path> inputs, Map<String, Path> outputs) {
    if (job.input().startsWith("kind:")) {
      return inputs.get(job.input().substring(5) + "-" + job.inputBytes());
    }
    if (job.input().startsWith("job:")) {
      return outputs.get(job.input().substring(4));
    }
    return null;
  }

  private static Map<String, LinkBytes> carried(Map<String, LinkBytes> before,
      Map<String, LinkBytes> after) {
    Map<String, LinkBytes> carried = new LinkedHashMap<>();
    after.forEach((node, bytes) -> carried.put(node,
        bytes.minus(before.getOrDefault(node, new LinkBytes(0, 0)))));
    return carried;
  }

  /** Sums the {@link RunRecord#COUNTERS} over the run's MapReduce jobs. */
  static Map<String, Long> counters(JobResult result) {
    Map<String, Long> sums = new LinkedHashMap<>();
    RunRecord.COUNTERS.forEach(name -> sums.put(name, 0L));
    for (JobOutcome outcome : result.jobs()) {
      if (outcome.counters() == null) {
        continue;
      }
      for (CounterGroup group : outcome.counters()) {
        boolean tiers = group.getName().equals(LocalityTier.COUNTER_GROUP);
        for (Counter counter : group) {
          String key = tiers ? RECORD_KEY_OF_TIER.get(counter.getName()) : counter.getName();
          if (sums.containsKey(key)) {
            sums.merge(key, counter.getValue(), Long::sum);
          }
        }
      }
    }
    return sums;
  }

  private static String duration(long seconds) {
    return seconds >= 60 ? seconds / 60 + "m" + String.format("%02d", seconds % 60) + "s"
        : seconds + "s";
  }
}
