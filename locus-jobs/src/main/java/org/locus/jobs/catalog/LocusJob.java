package org.locus.jobs.catalog;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A benchmark job of the catalog, runnable by name ({@code locus job NAME}). An implementation
 * builds one or more MapReduce jobs from an input path, an output path and its own options,
 * runs them in order and stops at the first failure.
 */
public interface LocusJob {
  /** @return the name that selects the job, e.g. {@code inverted-index} */
  String name();

  /** @return one line for help listings */
  String summary();

  /** @return the input this job reads, e.g. {@code text corpus (locus generate text)} */
  String inputKind();

  /** @return the job's options beyond input, output and reducers */
  default List<JobOption> options() {
    return List.of();
  }

  /** @return false for a job that only writes (teragen): then it takes no input */
  default boolean readsInput() {
    return true;
  }

  /**
   * @return whether the job reads its input as text lines with Hadoop's line reader, so that
   *     it can run key-aware on a KAT dataset
   */
  default boolean readsTextLines() {
    return false;
  }

  /**
   * Checks the options before any cluster is contacted.
   *
   * @throws IllegalArgumentException naming the option and what is expected
   */
  default void check(JobArguments args) {
  }

  /**
   * Runs the job's MapReduce jobs. {@code output} must not exist.
   *
   * @param input the input file or directory; null when {@link #readsInput()} is false
   */
  JobResult run(Configuration conf, Path input, Path output, JobArguments args)
      throws Exception;
}
