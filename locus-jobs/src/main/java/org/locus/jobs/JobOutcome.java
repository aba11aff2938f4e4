package org.locus.jobs;

import java.io.IOException;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * What one finished MapReduce job did: success, wall time and the locality and shuffle counters
 * Locus reports on.
 *
 * @param name job name
 * @param succeeded whether the job succeeded
 * @param wallMillis submission to completion, milliseconds
 * @param totalMaps launched map tasks
 * @param dataLocalMaps maps that ran on a host holding their split
 * @param rackLocalMaps maps that ran in the rack of their split but not on its host
 * @param shuffleBytes map output bytes reducers fetched
 * @param counters all counters, for anything else
 */
public record JobOutcome(String name, boolean succeeded, long wallMillis, long totalMaps,
    long dataLocalMaps, long rackLocalMaps, long shuffleBytes, Counters counters) {

  /** Submits {@code job}, waits for it, and collects its outcome. */
  public static JobOutcome run(Job job, boolean verbose)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    boolean ok;
    try {
      ok = job.waitForCompletion(verbose);
    } catch (ClassNotFoundException e) {
      throw new IOException("job " + job.getJobName() + " could not load a class", e);
    }
    long wall = (System.nanoTime() - start) / 1_000_000;
    Counters counters = job.getCounters();
    return new JobOutcome(job.getJobName(), ok, wall,
        value(counters, JobCounter.TOTAL_LAUNCHED_MAPS),
        value(counters, JobCounter.DATA_LOCAL_MAPS),
        value(counters, JobCounter.RACK_LOCAL_MAPS),
        value(counters, TaskCounter.REDUCE_SHUFFLE_BYTES),
        counters);
  }

  private static long value(Counters counters, Enum<?> key) {
    return counters == null ? 0 : counters.findCounter(key).getValue();
  }
}
