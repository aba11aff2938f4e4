package org.locus.bench.hybrid;

import java.io.File;
import java.util.List;

/**
 * What {@code locus bench hybrid} is asked to measure.
 *
 * @param suite the bench suite whose jobs run (e.g. {@code puma-small})
 * @param jobs the suite's jobs to run (a shuffle-heavy one: terasort)
 * @param ssdRate bytes/s of an SSD device, read and write
 * @param hddRate bytes/s of an HDD device, read and write
 * @param home the Locus checkout the dist bundle is written from
 */
public record HybridBenchRequest(String suite, List<String> jobs, int runs, int nodes,
    long ssdRate, long hddRate, long nodeMemoryBytes, long diskBytes, long blockBytes,
    File out, File home) {
  public HybridBenchRequest {
    jobs = List.copyOf(jobs);
  }
}
