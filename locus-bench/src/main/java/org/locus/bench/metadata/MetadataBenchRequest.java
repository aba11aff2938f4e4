package org.locus.bench.metadata;

import java.io.File;
import java.util.List;
import java.util.Map;

/**
 * What {@code locus bench metadata} is asked to measure.
 *
 * @param nodeCounts cluster sizes, each its own {@code --metadata fatbtree} cluster
 * @param layouts the layouts compared on each cluster, interleaved run by run
 * @param files files per run (seed 004 Table 5: 3 000)
 * @param fileBytes bytes per file (Table 5: 1 KB)
 * @param runs measured runs of every layout per cluster size
 * @param nodeCpus every node's CPU cap in cores (0: uncapped)
 * @param nodeMemoryBytes every node's memory cgroup
 * @param nnThroughput whether Hadoop's NNThroughputBenchmark also runs on node1 against
 *     partition 1's NameNode
 * @param keys extra keys for every daemon and client ({@code --conf})
 * @param out the report directory (the clusters' directories go below it)
 * @param home the Locus checkout the dist bundle is written from
 */
public record MetadataBenchRequest(List<Integer> nodeCounts, List<MetadataLayoutUnderTest> layouts,
    int files, int fileBytes, int runs, double nodeCpus, long nodeMemoryBytes,
    boolean nnThroughput, Map<String, String> keys, File out, File home) {
  public MetadataBenchRequest {
    nodeCounts = List.copyOf(nodeCounts);
    layouts = List.copyOf(layouts);
    keys = Map.copyOf(keys);
    if (nodeCounts.isEmpty() || layouts.isEmpty()) {
      throw new IllegalArgumentException("name at least one node count and one configuration");
    }
    for (int n : nodeCounts) {
      if (n < 1 || n > 16) {
        throw new IllegalArgumentException("node counts must be 1..16, not " + n);
      }
      if (files < n) {
        throw new IllegalArgumentException("--files " + files + " gives node " + n
            + " nothing to write");
      }
    }
  }
}
