package org.locus.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;

/**
 * The wait's answers to what Hadoop's {@code Job} reports, scripted: a Job whose submit does
 * nothing and whose status calls give the scripted answers in turn.
 */
class JobCompletionTest {
  /** A job whose isComplete answers, in turn: an exception, or whether the job is complete. */
  private static final class ScriptedJob extends Job {
    private final Deque<Object> answers;
    private final boolean succeeded;
    private int submits;

    @SuppressWarnings("deprecation")
    ScriptedJob(boolean succeeded, Object... answers) throws IOException {
      super(conf());
      this.succeeded = succeeded;
      this.answers = new ArrayDeque<>(List.of(answers));
    }

    private static Configuration conf() {
      Configuration conf = new Configuration(false);
      conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 1);
      return conf;
    }

    @Override
    public void submit() {
      submits++;
    }

    @Override
    public boolean isComplete() throws IOException {
      Object next = answers.poll();
      if (next instanceof IOException) {
        throw (IOException) next;
      }
      return next == null || (Boolean) next;
    }

    @Override
    public boolean isSuccessful() {
      return succeeded;
    }
  }

  private static IOException unavailable() {
    return new IOException(JobCompletion.STATUS_NOT_AVAILABLE + " ");
  }

  @Test
  void aStatusBrieflyUnavailableIsWaitedOut() throws Exception {
    ScriptedJob job = new ScriptedJob(true, false, unavailable(), unavailable(), true);
    assertTrue(JobCompletion.await(job, false));
    assertEquals(1, job.submits, "submitted once");
    assertTrue(job.answers.isEmpty(), "asked until it answered complete");
  }

  @Test
  void aFailedJobIsReportedAsFailed() throws Exception {
    assertEquals(false, JobCompletion.await(new ScriptedJob(false, false, true), false));
  }

  @Test
  void anyOtherFailureIsThrownAtOnce() throws Exception {
    IOException broken = new IOException("Connection refused");
    ScriptedJob job = new ScriptedJob(true, broken, true);
    assertEquals(broken, assertThrows(IOException.class, () -> JobCompletion.await(job, false)));
    assertEquals(1, job.answers.size(), "not asked again");
  }
}
