package org.locus.bench.suite;

import java.util.List;

/**
 * A named list of jobs run in order, each under every feature set.
 *
 * @param name e.g. {@code puma-small}
 * @param jobs in run order
 */
public record BenchSuite(String name, List<BenchJob> jobs) {
  /**
   * @return this suite with only the jobs named, in suite order
   * @throws IllegalArgumentException naming a job the suite does not have, or one whose input
   *     is an earlier job's output that is not selected
   */
  public BenchSuite only(List<String> ids) {
    List<String> known = jobs.stream().map(BenchJob::id).toList();
    for (String id : ids) {
      if (!known.contains(id)) {
        throw new IllegalArgumentException("suite " + name + " has no job '" + id + "'; its"
            + " jobs: " + String.join(", ", known));
      }
    }
    List<BenchJob> kept = jobs.stream().filter(j -> ids.contains(j.id())).toList();
    for (BenchJob job : kept) {
      if (job.input().startsWith("job:") && !ids.contains(job.input().substring(4))) {
        throw new IllegalArgumentException(job.id() + " reads " + job.input().substring(4)
            + "'s output: select " + job.input().substring(4) + " too");
      }
    }
    return new BenchSuite(name, kept);
  }
}
