package org.locus.ndcoupling.gear;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One gear-up run by every partition's NameNode at once (coupled nodes, seed 004 §4.3 with
 * SDP): each partition's own report, and the wall time from the first start to the last end.
 *
 * @param partitions each partition's report, by partition name, in the order they started
 * @param wallMillis from the first partition's start until the last one finished
 */
public record PartitionGearUps(Map<String, GearUpReport> partitions, long wallMillis) {
  public PartitionGearUps {
    partitions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(partitions));
  }

  /**
   * @return the partitions' reports as one: done only when every partition is done; entries,
   *     files, blocks, metadata bytes, moves and connections summed; each step the longest any
   *     partition took (the partitions run their steps side by side)
   */
  public GearUpReport combined() {
    GearUpReport first = partitions.values().iterator().next();
    if (partitions.size() == 1) {
      return first;
    }
    long[] steps = new long[4];
    int entries = 0;
    int files = 0;
    int blocks = 0;
    long bytes = 0;
    int moved = 0;
    int pending = 0;
    long connections = 0;
    boolean allDone = true;
    int step = 4;
    for (GearUpReport r : partitions.values()) {
      for (int s = 0; s < 4; s++) {
        steps[s] = Math.max(steps[s], r.stepMillis()[s]);
      }
      entries += r.entries();
      files += r.files();
      blocks += r.blocks();
      bytes += r.metadataBytes();
      moved += r.blocksMoved();
      pending += r.blocksPending();
      connections += Math.max(0, r.connections());
      allDone &= "done".equals(r.state());
      step = Math.min(step, r.step());
    }
    boolean running = partitions.values().stream().anyMatch(r -> "running".equals(r.state()));
    String reason = partitions.entrySet().stream()
        .filter(e -> e.getValue().reason() != null && !e.getValue().reason().isEmpty())
        .map(e -> e.getKey() + ": " + e.getValue().reason()).collect(Collectors.joining("; "));
    return new GearUpReport(running ? "running" : allDone ? "done" : "failed", step,
        first.issuance(), first.transfer(), first.returning(), entries, files, blocks, bytes,
        steps, moved, pending, connections, reason);
  }
}
