package org.locus.jobs;

import java.io.IOException;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * What one finished MapReduce job did: success, wall time and the locality and shuffle counters
 * Locus reports on.
 *
 * @param name job name
 * @param succeeded whether the job succeeded
 * @param wallMillis submission to completion, milliseconds
 * @param mapTasks map tasks of the job (its input splits)
 * @param totalMaps launched map attempts: more than {@code mapTasks} when an attempt was
 *     speculated or retried
 * @param dataLocalMaps maps that ran on a host holding their split
 * @param rackLocalMaps maps that ran in the rack of their split but not on its host
 * @param shuffleBytes map output bytes reducers fetched
 * @param counters all counters, for anything else
 * @param timeline where the wall time went ({@link JobTimeline#UNKNOWN} if the task reports
 *     could not be read)
 * @param failure why the job failed, as the framework reports it ({@code Job}'s failure info,
 *     else its final state); empty when it succeeded
 */
public record JobOutcome(String name, boolean succeeded, long wallMillis, int mapTasks, long totalMaps,
    long dataLocalMaps, long rackLocalMaps, long shuffleBytes, Counters counters,
    JobTimeline timeline, String failure) {

  /** Submits {@code job}, waits for it, and collects its outcome. */
  public static JobOutcome run(Job job, boolean verbose)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    long submitted = System.currentTimeMillis();
    boolean ok;
    try {
      ok = job.waitForCompletion(verbose);
    } catch (ClassNotFoundException e) {
      throw new IOException("job " + job.getJobName() + " could not load a class", e);
    }
    long wall = (System.nanoTime() - start) / 1_000_000;
    Counters counters = job.getCounters();
    return new JobOutcome(job.getJobName(), ok, wall,
        job.getConfiguration().getInt(MRJobConfig.NUM_MAPS, -1),
        value(counters, JobCounter.TOTAL_LAUNCHED_MAPS),
        value(counters, JobCounter.DATA_LOCAL_MAPS),
        value(counters, JobCounter.RACK_LOCAL_MAPS),
        value(counters, TaskCounter.REDUCE_SHUFFLE_BYTES),
        counters, timeline(job, submitted), ok ? "" : failure(job));
  }

  private static String failure(Job job) {
    try {
      String info = job.getStatus().getFailureInfo();
      String why = info == null || info.isBlank()
          ? "job " + job.getJobID() + " ended " + job.getStatus().getState()
          : info.trim().replaceAll("\\s+", " ");
      return why + lastFailedAttempt(job);
    } catch (IOException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return "job " + job.getJobID() + " failed; its status could not be read: " + e;
    }
  }

  private static JobTimeline timeline(Job job, long submitted) throws InterruptedException {
    try {
      return JobTimeline.of(job, submitted);
    } catch (IOException e) {
      return JobTimeline.UNKNOWN;
    }
  }

  /** @return "; last failed attempt ID: first diagnostic line", or empty */
  private static String lastFailedAttempt(Job job) throws IOException, InterruptedException {
    TaskCompletionEvent failed = null;
    for (TaskCompletionEvent event : job.getTaskCompletionEvents(0, 10_000)) {
      if (event.getStatus() == TaskCompletionEvent.Status.FAILED) {
        failed = event;
      }
    }
    if (failed == null) {
      return "";
    }
    String[] diagnostics = job.getTaskDiagnostics(failed.getTaskAttemptId());
    String first = diagnostics == null || diagnostics.length == 0 ? "no diagnostics"
        : diagnostics[diagnostics.length - 1].lines().filter(l -> !l.isBlank()).findFirst()
            .orElse("no diagnostics").trim();
    return "; last failed attempt " + failed.getTaskAttemptId() + ": " + first;
  }

  private static long value(Counters counters, Enum<?> key) {
    return counters == null ? 0 : counters.findCounter(key).getValue();
  }
}
