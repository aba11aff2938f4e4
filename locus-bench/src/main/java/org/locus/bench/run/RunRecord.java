package org.locus.bench.run;

import java.util.Map;

/**
 * One (job, feature, run) of a bench, as {@code results.json} stores it.
 *
 * @param job the suite job's id
 * @param feature the feature set
 * @param run 1-based repetition
 * @param succeeded whether every MapReduce job succeeded and no check failed
 * @param wallMillis submission of the first MapReduce job to completion of the last
 * @param keyAware whether the run was key-aware: its input a KAT dataset, its reducers on
 *     their keys' owners
 * @param counters summed over the MapReduce jobs: the {@link #COUNTERS} names
 * @param linkBytes what each worker node's link carried during the run, by node; empty when
 *     the cluster cannot count it
 */
public record RunRecord(String job, String feature, int run, boolean succeeded,
    long wallMillis, boolean keyAware, Map<String, Long> counters, Map<String, LinkBytes> linkBytes) {
  /** Counters every record carries. */
  public static final java.util.List<String> COUNTERS = java.util.List.of("MAP_INPUT_RECORDS",
      "MAP_OUTPUT_BYTES", "REDUCE_SHUFFLE_BYTES", "HDFS_BYTES_READ", "HDFS_BYTES_WRITTEN",
      "FILE_BYTES_READ", "FILE_BYTES_WRITTEN", "TOTAL_LAUNCHED_MAPS", "DATA_LOCAL_MAPS",
      "RACK_LOCAL_MAPS", "CPU_MILLISECONDS", "SUPERLOCAL_MAPS");

  /** @return the key that identifies the record in a results file */
  public String key() {
    return job + "|" + feature + "|" + run;
  }
}
