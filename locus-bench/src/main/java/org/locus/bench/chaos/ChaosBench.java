package org.locus.bench.chaos;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.locus.bench.replay.ReplayedJob;
import org.locus.bench.replay.TraceReplay;
import org.locus.jobs.data.DataGenerators;
import org.locus.jobs.swim.SuiteJob;
import org.locus.jobs.swim.SwimSuites;
import org.locus.netns.DaemonLauncher;

/**
 * {@code locus bench chaos} (issue 46): a SWIM trace replayed, compressed to the run's length,
 * beside a WordCount with a known answer every few minutes, while a {@link FaultInjector} kills
 * a random worker's DataNode or NodeManager with SIGKILL on a seeded schedule and starts it
 * again; a {@link HealthSampler} follows the NameNode's block counts. After the last fault the
 * run waits for HDFS to heal, runs {@code fsck /}, and asks YARN why each failed application
 * failed. The verdict is {@link ChaosResult#problems()}.
 */
public final class ChaosBench {
  private static final long SEED = 46;
  private static final long HEALTH_PERIOD_MILLIS = 5_000;

  private final ChaosSettings settings;
  private final PrintStream progress;

  public ChaosBench(ChaosSettings settings, PrintStream progress) {
    this.settings = settings;
    this.progress = progress;
  }

  /**
   * Runs on the cluster whose clients use {@code conf} and whose daemons {@code launcher}
   * starts, with {@code nodes} workers; writes nothing (see {@link ChaosReport}).
   */
  public ChaosResult run(Configuration conf, DaemonLauncher launcher, int nodes)
      throws IOException, InterruptedException {
    ChaosSchedule schedule = settings.schedule(nodes);
    List<SuiteJob> swimJobs = SwimSuites.replay(settings.trace().name(), settings.trace().jobs(),
        settings.traceHours(), settings.scaling());
    FileSystem fs = FileSystem.get(conf);
    Path root = new Path("/locus-chaos");
    fs.delete(root, true);
    CountedWordCount counted = new CountedWordCount(new Path(root, "wordcount"));
    long inputBytes = counted.writeInput(fs, settings.seed(), 4, 6_000);
    Path pool = new Path(root, "swim/pool");
    long poolBytes = swimJobs.stream().mapToLong(j -> j.targets().inputBytes()).max()
        .orElse(0);
    if (poolBytes > 0) {
      new DataGenerators().get("text").write(fs, pool, poolBytes, 4, SEED);
    }
    progress.printf(Locale.ROOT, "chaos: %d kills planned over %.1f min (seed %d); %d jobs of"
        + " %s (first %s h, %.1f times faster); a checked WordCount (%d bytes) every %.1f min%n",
        schedule.faults().size(), settings.durationMillis() / 60_000.0, settings.seed(),
        swimJobs.size(), settings.trace().name(), settings.traceHours(),
        settings.compression(), inputBytes, settings.checkEveryMillis() / 60_000.0);

    long start = System.nanoTime();
    long startEpochMillis = System.currentTimeMillis();
    List<CheckedJob> jobs = new ArrayList<>();
    HealthSampler health = new HealthSampler(conf.getTrimmed("dfs.namenode.http-address"),
        HEALTH_PERIOD_MILLIS);
    FaultInjector faults = new FaultInjector(launcher, progress);
    health.start(start);
    faults.start(schedule, start);
    List<ReplayedJob> replayed = new ArrayList<>();
    long[] replayOffset = {0};
    Thread replay = new Thread(() -> {
      replayOffset[0] = sinceStart(start);
      try {
        replayed.addAll(new TraceReplay(swimJobs, settings.compression(), settings.reducers(),
            progress).replay(conf, pool, new Path(root, "swim/out")));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "locus-chaos-replay");
    if (!swimJobs.isEmpty()) {
      replay.start();
    }
    try {
      for (int i = 1; sinceStart(start) < settings.durationMillis(); i++) {
        CheckedJob job = counted.run(conf, i, start);
        jobs.add(job);
        progress.printf(Locale.ROOT, "[chaos %6.1f s] %s %s%s%n", job.endMillis() / 1000.0,
            job.name(), !job.succeeded() ? "FAILED" : job.correct() ? "correct" : "WRONG",
            job.reason().isEmpty() ? "" : ": " + job.reason());
        long next = i * settings.checkEveryMillis() - sinceStart(start);
        if (next > 0) {
          Thread.sleep(Math.min(next, Math.max(0,
              settings.durationMillis() - sinceStart(start))));
        }
      }
      if (!swimJobs.isEmpty()) {
        replay.join();
      }
    } finally {
      faults.close();
    }
    for (ReplayedJob job : replayed) {
      jobs.add(new CheckedJob(job.name(), "swim", replayOffset[0] + job.submittedMillis(),
          replayOffset[0] + job.finishedMillis(), job.succeeded(), false, false,
          job.error() == null ? "" : job.error()));
    }
    settle(health, nodes, start);
    health.close();
    ChaosResult.Fsck fsck = fsck(conf);
    List<ChaosResult.Application> applications = applications(conf, startEpochMillis);
    return new ChaosResult(settings, schedule, faults.events(), jobs, health.samples(), fsck,
        applications, sinceStart(start));
  }

  /** Waits until every DataNode is live again and no block is under-replicated. */
  private void settle(HealthSampler health, int nodes, long start) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.settleMillis());
    HealthSampler.Sample last = null;
    while (System.nanoTime() < deadline) {
      try {
        last = health.read();
        if (last.liveDataNodes() == nodes && last.underReplicated() == 0) {
          progress.printf(Locale.ROOT, "[chaos %6.1f s] healed: %d DataNodes live, no block"
              + " under-replicated%n", sinceStart(start) / 1000.0, nodes);
          return;
        }
      } catch (IOException e) {
        // the NameNode is busy; ask again
      }
      Thread.sleep(2_000);
    }
    progress.printf("chaos: not healed within %d s: %s%n", settings.settleMillis() / 1000, last);
  }

  private static final Pattern COUNT = Pattern.compile(
      "(Missing blocks|Corrupt blocks|Under-replicated blocks):\\s+(\\d+)");

  /** @return what {@code fsck /} reports */
  static ChaosResult.Fsck fsck(Configuration conf) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      code = new DFSck(conf, out).run(new String[] {"/"});
    } catch (Exception e) {
      throw new IOException("fsck / failed: " + e.getMessage(), e);
    }
    return parseFsck(bytes.toString(StandardCharsets.UTF_8), code);
  }

  /** @return the counts of an {@code fsck} report; missing counts read as -1 */
  static ChaosResult.Fsck parseFsck(String report, int exitCode) {
    long missing = -1;
    long corrupt = -1;
    long under = -1;
    Matcher m = COUNT.matcher(report);
    while (m.find()) {
      long value = Long.parseLong(m.group(2));
      switch (m.group(1)) {
        case "Missing blocks" -> missing = missing < 0 ? value : missing;
        case "Corrupt blocks" -> corrupt = corrupt < 0 ? value : corrupt;
        default -> under = under < 0 ? value : under;
      }
    }
    StringBuilder summary = new StringBuilder();
    for (String line : report.split("\n")) {
      if (line.contains("Status:") || COUNT.matcher(line).find() || line.contains("HEALTHY")) {
        summary.append(line.trim()).append('\n');
      }
    }
    boolean healthy = exitCode == 0 && report.contains("is HEALTHY");
    return new ChaosResult.Fsck(healthy, missing, corrupt, under, summary.toString().trim());
  }

  /**
   * @return the failed or killed applications started since {@code sinceEpochMillis}, and
   *     those whose ApplicationMaster was retried
   */
  private static List<ChaosResult.Application> applications(Configuration conf,
      long sinceEpochMillis) throws IOException {
    List<ChaosResult.Application> found = new ArrayList<>();
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      for (ApplicationReport app : yarn.getApplications(EnumSet.of(
          YarnApplicationState.FINISHED, YarnApplicationState.FAILED,
          YarnApplicationState.KILLED))) {
        if (app.getStartTime() < sinceEpochMillis) {
          continue;
        }
        int attempts = app.getCurrentApplicationAttemptId() == null ? 0
            : app.getCurrentApplicationAttemptId().getAttemptId();
        boolean failed = app.getYarnApplicationState() != YarnApplicationState.FINISHED
            || !"SUCCEEDED".equals(String.valueOf(app.getFinalApplicationStatus()));
        if (failed || attempts > 1) {
          String why = app.getDiagnostics() == null ? "" : app.getDiagnostics().trim();
          found.add(new ChaosResult.Application(app.getApplicationId().toString(),
              app.getName(), app.getYarnApplicationState() + "/"
                  + app.getFinalApplicationStatus(), attempts,
              why.isEmpty() ? "" : why.lines().findFirst().orElse("")));
        }
      }
    } catch (org.apache.hadoop.yarn.exceptions.YarnException e) {
      throw new IOException("YARN's application list: " + e.getMessage(), e);
    }
    return found;
  }

  private static long sinceStart(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
