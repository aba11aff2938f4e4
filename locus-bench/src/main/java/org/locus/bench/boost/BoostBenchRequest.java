package org.locus.bench.boost;

import java.io.File;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.locus.bench.run.TaskMemory;
import org.locus.netns.NetnsClusterSpec;

/**
 * What {@code locus bench boost} is asked to measure.
 *
 * @param suite the bench suite whose jobs run (e.g. {@code puma-small})
 * @param jobs the suite's jobs to run: disk-bound and compute-bound ones
 * @param copies copies of every block in both layouts (HDFS replication, or BoostDFS's
 *     SUPERLOCAL copies with the intra-node mirror counted): the same capacity
 * @param diskRate bytes/s each device reads and writes
 * @param taskMemory the map and AM containers both layouts' jobs ask for
 * @param jobKeys further job keys both layouts' jobs are submitted with
 * @param boostKeys {@code conf/features/boost.xml}'s keys
 * @param home the Locus checkout the dist bundle is written from
 */
public record BoostBenchRequest(String suite, List<String> jobs, int runs, int nodes,
    int copies, long diskRate, long nodeMemoryBytes, long diskBytes, long blockBytes,
    TaskMemory taskMemory, Map<String, String> jobKeys, Map<String, String> boostKeys, File out,
    File home) {
  public BoostBenchRequest {
    jobs = List.copyOf(jobs);
    boostKeys = Map.copyOf(boostKeys);
    jobKeys = Collections.unmodifiableMap(new LinkedHashMap<>(jobKeys));
    taskMemory.checkFits(containerBytes(nodeMemoryBytes));
    if (copies < 3 || copies > nodes + 1) {
      throw new IllegalArgumentException("--copies " + copies + " needs 3.." + (nodes + 1)
          + " (one REPLICATED replica of 2 copies and copies - 2 plain ones on other nodes,"
          + " with --nodes " + nodes + ")");
    }
  }

  /** @return what a node's NodeManager offers its containers */
  public long containerBytes() {
    return containerBytes(nodeMemoryBytes);
  }

  private static long containerBytes(long nodeMemoryBytes) {
    return nodeMemoryBytes - NetnsClusterSpec.NODE_DAEMONS_BYTES;
  }
}
