package org.locus.jobs;

import java.io.IOException;

import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * Where a finished job's wall time went, from the task reports its AM (or the history server)
 * keeps: how long before the AM ran, before the first map ran, the map phase, and what came
 * after the last map. Used to profile a job that is slower than another doing the same work.
 *
 * @param launchMillis submission until the job started in its AM
 * @param firstMapMillis job start until the first map task started
 * @param mapPhaseMillis first map start until the last map finished
 * @param afterMapsMillis last map finished until the job finished (the reduce tail)
 * @param maps map tasks that ran
 * @param meanMapMillis mean map task duration
 * @param firstReduceStartMillis first reduce task start relative to the first map start (-1
 *     without reducers); above {@code mapPhaseMillis} when the reducers waited for every map
 */
public record JobTimeline(long launchMillis, long firstMapMillis, long mapPhaseMillis,
    long afterMapsMillis, int maps, long meanMapMillis, long firstReduceStartMillis) {

  /** A timeline that could not be read (no task reports). */
  public static final JobTimeline UNKNOWN = new JobTimeline(-1, -1, -1, -1, 0, -1, -1);

  /** @return whether the task reports were read */
  public boolean known() {
    return maps > 0;
  }

  /**
   * Reads the timeline of a finished job.
   *
   * @param submitMillis wall-clock time the client submitted it
   */
  static JobTimeline of(Job job, long submitMillis) throws IOException, InterruptedException {
    TaskReport[] maps = job.getTaskReports(TaskType.MAP);
    TaskReport[] reduces = job.getTaskReports(TaskType.REDUCE);
    if (maps == null || maps.length == 0) {
      return UNKNOWN;
    }
    long firstMap = Long.MAX_VALUE;
    long lastMapEnd = 0;
    long sum = 0;
    int ran = 0;
    for (TaskReport r : maps) {
      if (r.getStartTime() <= 0 || r.getFinishTime() <= 0) {
        continue;
      }
      firstMap = Math.min(firstMap, r.getStartTime());
      lastMapEnd = Math.max(lastMapEnd, r.getFinishTime());
      sum += r.getFinishTime() - r.getStartTime();
      ran++;
    }
    if (ran == 0) {
      return UNKNOWN;
    }
    long firstReduce = Long.MAX_VALUE;
    for (TaskReport r : reduces == null ? new TaskReport[0] : reduces) {
      if (r.getStartTime() > 0) {
        firstReduce = Math.min(firstReduce, r.getStartTime());
      }
    }
    long start = job.getStartTime();
    long finish = job.getFinishTime();
    return new JobTimeline(start - submitMillis, firstMap - start, lastMapEnd - firstMap,
        finish - lastMapEnd, ran, sum / ran,
        firstReduce == Long.MAX_VALUE ? -1 : firstReduce - firstMap);
  }
}
