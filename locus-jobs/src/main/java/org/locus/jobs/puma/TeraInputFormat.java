package org.locus.jobs.puma;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;

/**
 * Reads 100-byte tera records ({@link TeraRecords}): key = byte offset, value = the record.
 * Hadoop's fixed-length reader already splits at record boundaries; this class only fixes the
 * record length. A file whose size is not a multiple of 100 fails the task (partial record).
 */
public class TeraInputFormat extends FixedLengthInputFormat {
  /** Sets the record length on a job configuration; call once when building the job. */
  public static void configure(Configuration conf) {
    setRecordLength(conf, TeraRecords.RECORD_BYTES);
  }

  /** Reads each file whole in one map task, so a task sees a file's records in order. */
  public static class WholeFiles extends TeraInputFormat {
    @Override
    protected boolean isSplitable(JobContext context, org.apache.hadoop.fs.Path file) {
      return false;
    }
  }
}
