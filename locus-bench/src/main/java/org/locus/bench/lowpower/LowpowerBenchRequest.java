package org.locus.bench.lowpower;

import java.io.File;
import java.util.List;
import java.util.Map;

/**
 * What {@code locus bench lowpower} is asked to measure.
 *
 * @param nodes DataNodes per cluster (at least the largest replication)
 * @param nodeCpus each node's CPU in cores (the weak core)
 * @param bytes bytes each probe writes and reads back
 * @param rounds rounds; each measures every row at every replication once
 * @param replications the replication factors (seed: 1 and 3)
 * @param optInJars the LZO opt-in bundle's jars (empty: no LZO row)
 * @param diskRate bytes/s every DataNode device reads and writes (0: unthrottled, the page cache
 *     and this host's disk)
 * @param lowpowerKeys {@code conf/features/lowpower.xml}'s keys, for the direct-I/O cluster
 * @param clusters where the two clusters' directories go
 * @param out the report directory
 * @param home the Locus checkout the dist bundle is written from
 */
public record LowpowerBenchRequest(int nodes, double nodeCpus, long bytes, int rounds,
    List<Integer> replications, long diskRate, List<File> optInJars,
    Map<String, String> lowpowerKeys,
    long nodeMemoryBytes, File clusters, File out, File home) {
  public LowpowerBenchRequest {
    replications = List.copyOf(replications);
    optInJars = List.copyOf(optInJars);
    lowpowerKeys = Map.copyOf(lowpowerKeys);
    if (diskRate < 0) {
      throw new IllegalArgumentException("disk rate must be >= 0 bytes/s, not " + diskRate);
    }
    for (int r : replications) {
      if (r < 1 || r > nodes) {
        throw new IllegalArgumentException("replication " + r + " needs 1.." + nodes
            + " DataNodes (--nodes " + nodes + ")");
      }
    }
  }
}
