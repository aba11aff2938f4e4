package org.locus.jobs;

import java.io.IOException;

import org.apache.hadoop.mapreduce.Job;

/**
 * Submits a MapReduce job and waits for it, as {@code Job.waitForCompletion} does, but rides out
 * the moment between the job's AM exiting and the JobHistoryServer serving its report. In that
 * moment the client's status call finds the job nowhere, and Hadoop's {@code Job} throws
 * {@value #STATUS_NOT_AVAILABLE}; on a busy host it happens to a job that succeeded. Such a
 * failure is retried for up to {@link #PATIENCE_MILLIS}; any other is thrown at once.
 */
public final class JobCompletion {
  /** The message of Hadoop's {@code Job} when the cluster returns no status for the job. */
  static final String STATUS_NOT_AVAILABLE = "Job status not available";
  /** How long the status may stay unavailable before the wait gives up. */
  static final long PATIENCE_MILLIS = 60_000;

  private JobCompletion() {
  }

  /**
   * @param job a job not yet submitted
   * @param verbose print the job's progress as {@code waitForCompletion(true)} does
   * @return whether the job succeeded
   */
  public static boolean await(Job job, boolean verbose)
      throws IOException, InterruptedException, ClassNotFoundException {
    job.submit();
    if (verbose) {
      try {
        return job.monitorAndPrintJob();
      } catch (IOException e) {
        if (!statusNotAvailable(e)) {
          throw e;
        }
      }
    }
    long poll = Job.getCompletionPollInterval(job.getConfiguration());
    long unavailableSince = -1;
    while (true) {
      try {
        if (job.isComplete()) {
          return job.isSuccessful();
        }
        unavailableSince = -1;
      } catch (IOException e) {
        long now = System.nanoTime();
        if (!statusNotAvailable(e)) {
          throw e;
        }
        if (unavailableSince < 0) {
          unavailableSince = now;
        } else if (now - unavailableSince > PATIENCE_MILLIS * 1_000_000L) {
          throw new IOException("the status of job " + job.getJobID() + " was not available for "
              + PATIENCE_MILLIS / 1000 + " s (is the JobHistoryServer running?)", e);
        }
      }
      Thread.sleep(poll);
    }
  }

  static boolean statusNotAvailable(IOException e) {
    return e.getMessage() != null && e.getMessage().startsWith(STATUS_NOT_AVAILABLE);
  }
}
