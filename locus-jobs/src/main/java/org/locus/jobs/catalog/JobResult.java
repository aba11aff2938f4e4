package org.locus.jobs.catalog;

import java.util.List;

import org.locus.jobs.JobOutcome;

/**
 * What one run of a catalog job did: the MapReduce jobs it ran, in order, and any problems a
 * checking job found in its data (e.g. {@code teravalidate}'s disorder).
 *
 * @param jobs the MapReduce jobs run, in order
 * @param problems what a checking job found wrong; empty when the data passed
 */
public record JobResult(List<JobOutcome> jobs, List<String> problems) {
  public static JobResult of(JobOutcome... jobs) {
    return new JobResult(List.of(jobs), List.of());
  }

  /** @return whether every job succeeded and no problem was found */
  public boolean passed() {
    return problems.isEmpty() && jobs.stream().allMatch(JobOutcome::succeeded);
  }
}
