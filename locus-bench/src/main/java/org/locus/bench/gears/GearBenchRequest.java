package org.locus.bench.gears;

import java.io.File;
import java.util.List;
import java.util.Map;

/**
 * What {@code locus bench gears} was asked for.
 *
 * @param configs the configurations, run interleaved on one cluster per knob set
 * @param runs measured runs per configuration with the seed's knobs
 * @param stockRuns measured runs per configuration with stock knobs (slow: 2 streams)
 * @param nodes netns nodes; the low gear has the first half on
 * @param files one-block files written in low gear each run
 * @param fileBytes each file's size
 * @param writers client threads writing them
 * @param wholeNodes on coupled nodes with copies (three or more), switch whole nodes off (every
 *     daemon, the partition served by its copy, with {@code fbb} the index node too, its pages
 *     shipped back at step 1) instead of their DataNodes only
 * @param linkBitsPerSecond each node's link rate (0 = unshaped)
 * @param diskBytesPerSecond each node's disk read and write throttle (0 = none)
 * @param nodeMemoryBytes each node's memory cgroup
 * @param nodeWatts the energy module's node power model, watts per node
 * @param heavyHours hours a day in the top gear for the modelled energy (the rest light)
 * @param featureKeys conf/features/ndcoupling.xml
 * @param out report directory
 * @param home the Locus checkout
 */
public record GearBenchRequest(List<GearBenchConfig> configs, int runs, int stockRuns,
    int nodes, int files,
    int fileBytes, int writers, boolean wholeNodes, long linkBitsPerSecond, long diskBytesPerSecond,
    long nodeMemoryBytes, double nodeWatts, double heavyHours, Map<String, String> featureKeys,
    File out, File home) {
  public GearBenchRequest {
    configs = List.copyOf(configs);
    featureKeys = Map.copyOf(featureKeys);
    if (nodes < 2) {
      throw new IllegalArgumentException("--nodes must be at least 2 (a low gear needs a node"
          + " off), got " + nodes);
    }
    if (wholeNodes && nodes < 3) {
      throw new IllegalArgumentException("--whole-nodes needs at least 3 nodes (partitions and"
          + " Fat-Btree index nodes have copies from three coupled nodes on), got " + nodes);
    }
    if (heavyHours < 0 || heavyHours > 24) {
      throw new IllegalArgumentException("--heavy-hours must be 0..24, got " + heavyHours);
    }
  }
}
