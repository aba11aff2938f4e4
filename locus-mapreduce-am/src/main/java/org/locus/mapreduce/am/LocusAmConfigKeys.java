package org.locus.mapreduce.am;

/** Job configuration keys of the Locus MapReduce AM. */
public final class LocusAmConfigKeys {
  /**
   * {@code mapreduce.framework.name} of a job that runs under the Locus AM: submitted by
   * {@link LocusYarnRunner}, which launches
   * {@link org.apache.hadoop.mapreduce.v2.app.LocusMRAppMaster} in place of the stock AM.
   */
  public static final String FRAMEWORK_NAME = "locus";
  /** Class name of the job's {@link TaskPlacement}; required for a job under the Locus AM. */
  public static final String TASK_PLACEMENT = "locus.am.task-placement";

  private LocusAmConfigKeys() {
  }
}
