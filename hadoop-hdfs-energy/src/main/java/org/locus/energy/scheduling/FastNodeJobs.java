package org.locus.energy.scheduling;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.locus.mapreduce.am.LocusAmConfigKeys;
import org.locus.mapreduce.am.TaskPlacement;

/**
 * Puts a job under the Locus MapReduce AM with {@link BackupLocalTaskPlacement}: the two keys a
 * user can also set with {@code -D} on any MapReduce job.
 */
public final class FastNodeJobs {
  private FastNodeJobs() {
  }

  /** @param conf the job's configuration, before submission */
  public static void configure(Configuration conf) {
    conf.set(MRConfig.FRAMEWORK_NAME, LocusAmConfigKeys.FRAMEWORK_NAME);
    conf.setClass(LocusAmConfigKeys.TASK_PLACEMENT, BackupLocalTaskPlacement.class,
        TaskPlacement.class);
  }
}
