package org.locus.bench.replay;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.catalog.LocusJob;
import org.locus.jobs.swim.SuiteJob;
import org.locus.jobs.swim.SyntheticJob;

/**
 * Replays synthetic jobs at their trace times: job {@code i} is submitted
 * {@code submitSeconds / compression} after the replay starts, whether or not earlier jobs have
 * finished, so jobs overlap as they did on the traced cluster (scaled in time). One scheduling
 * thread keeps the trace order; each job runs on a thread of its own until it finishes.
 *
 * <p>Submission is never early; it is late when the scheduling thread was late (a busy
 * machine), and the record says by how much.
 */
public final class TraceReplay {
  private final List<SuiteJob> jobs;
  private final double compression;
  private final int reducers;
  private final PrintStream progress;

  /**
   * @param jobs the jobs, in submission order
   * @param compression how many times faster than the trace the jobs are submitted (1 = the
   *     trace's own pace)
   * @param reducers reduce tasks of a job that shuffles
   * @param progress where a line per submission and per completion goes
   */
  public TraceReplay(List<SuiteJob> jobs, double compression, int reducers,
      PrintStream progress) {
    if (!(compression > 0)) {
      throw new IllegalArgumentException("time compression must be > 0, got " + compression);
    }
    this.jobs = List.copyOf(jobs);
    this.compression = compression;
    this.reducers = reducers;
    this.progress = progress;
  }

  /**
   * Replays every job against {@code conf}, each reading {@code pool} and writing under
   * {@code outputs}; returns when all have finished.
   */
  public List<ReplayedJob> replay(Configuration conf, Path pool, Path outputs)
      throws InterruptedException {
    LocusJob synthetic = new SyntheticJob();
    ExecutorService running = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "locus-swim-replay-job");
      t.setDaemon(true);
      return t;
    });
    List<Future<ReplayedJob>> futures = new ArrayList<>();
    AtomicInteger finished = new AtomicInteger();
    long start = System.nanoTime();
    try {
      for (int i = 0; i < jobs.size(); i++) {
        SuiteJob job = jobs.get(i);
        long planned = Math.round(job.submitSeconds() * 1000 / compression);
        long wait = planned - sinceMillis(start);
        if (wait > 0) {
          Thread.sleep(wait);
        }
        int number = i + 1;
        // taken here, on the one scheduling thread, so submission times keep the trace order
        // even when job threads start out of order on a busy machine
        long submitted = sinceMillis(start);
        futures.add(running.submit(() -> {
          ReplayedJob done = runOne(synthetic, conf, pool, outputs, job, planned, submitted,
              start);
          progress.printf("[%d/%d done] %s %s in %.1f s%s%n", finished.incrementAndGet(),
              jobs.size(), done.name(), done.succeeded() ? "ok" : "FAILED", done.wallMillis()
              / 1000.0, done.error() == null ? "" : ": " + done.error());
          return done;
        }));
        progress.printf("[%d/%d submitted] %s at %.1f s (trace %.0f s, late %d ms)%n", number,
            jobs.size(), job.name(), submitted / 1000.0, job.submitSeconds(),
            Math.max(0, submitted - planned));
      }
      List<ReplayedJob> replayed = new ArrayList<>();
      for (Future<ReplayedJob> future : futures) {
        try {
          replayed.add(future.get());
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IllegalStateException("a replay thread failed", e.getCause());
        }
      }
      return replayed;
    } finally {
      running.shutdownNow();
      running.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private ReplayedJob runOne(LocusJob synthetic, Configuration conf, Path pool, Path outputs,
      SuiteJob job, long planned, long submitted, long start) {
    JobArguments args = new JobArguments(Map.of(
        "input-bytes", String.valueOf(job.targets().inputBytes()),
        "shuffle-bytes", String.valueOf(job.targets().shuffleBytes()),
        "output-bytes", String.valueOf(job.targets().outputBytes())), reducers);
    try {
      JobResult result = synthetic.run(new Configuration(conf), pool,
          new Path(outputs, job.name()), args);
      Counters counters = result.jobs().get(0).counters();
      return new ReplayedJob(job.name(), Math.round(job.submitSeconds()), planned, submitted,
          sinceMillis(start), result.passed(), job.targets(),
          value(counters, FileInputFormatCounter.BYTES_READ),
          value(counters, TaskCounter.MAP_OUTPUT_BYTES),
          value(counters, FileOutputFormatCounter.BYTES_WRITTEN), result.passed() ? null
              : failure(result));
    } catch (Exception e) {
      return new ReplayedJob(job.name(), Math.round(job.submitSeconds()), planned, submitted,
          sinceMillis(start), false, job.targets(), 0, 0, 0, e.toString());
    }
  }

  /** @return why a run that did not pass failed: the first failed job's reason, or problems */
  private static String failure(JobResult result) {
    for (org.locus.jobs.JobOutcome job : result.jobs()) {
      if (!job.succeeded()) {
        return job.failure();
      }
    }
    return String.join("; ", result.problems());
  }

  private static long value(Counters counters, Enum<?> key) {
    return counters == null ? 0 : counters.findCounter(key).getValue();
  }

  private static long sinceMillis(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
