package org.locus.bench.chaos;

import java.util.List;

import org.locus.bench.replay.SwimTraces;
import org.locus.jobs.swim.SwimScaling;

/**
 * What a chaos run does (docs/reliability.md, "The chaos run").
 *
 * @param durationMillis how long faults are injected and checked jobs submitted
 * @param everyMillis time between two kills
 * @param minDownMillis shortest time a killed daemon stays down
 * @param maxDownMillis longest time a killed daemon stays down (less than {@code everyMillis})
 * @param seed the seed of the kills and of the checked input
 * @param checkEveryMillis time between two checked WordCount submissions
 * @param trace the SWIM trace whose first {@code traceHours} are replayed over the run
 * @param traceHours how much of the trace: compressed to fit {@code durationMillis}
 * @param scaling how the trace's bytes are scaled to this cluster
 * @param reducers reduce tasks of a replayed job that shuffles
 * @param roles the roles a fault may kill ({@code datanode}, {@code nodemanager})
 * @param settleMillis how long, after the last fault, the run waits for HDFS to be fully
 *     replicated before it checks
 */
public record ChaosSettings(long durationMillis, long everyMillis, long minDownMillis,
    long maxDownMillis, long seed, long checkEveryMillis, SwimTraces trace, double traceHours,
    SwimScaling scaling, int reducers, List<String> roles, long settleMillis) {
  public ChaosSettings {
    roles = List.copyOf(roles);
    if (durationMillis <= 0 || checkEveryMillis <= 0 || !(traceHours > 0)) {
      throw new IllegalArgumentException("the run's length, the time between checked jobs and"
          + " the trace hours must be > 0");
    }
  }

  /** @return how many times faster than the trace the replay submits: the hours fit the run */
  public double compression() {
    return traceHours * 3_600_000 / durationMillis;
  }

  /** @return the kills of a cluster of {@code nodes} workers */
  public ChaosSchedule schedule(int nodes) {
    return ChaosSchedule.plan(seed, durationMillis, everyMillis, minDownMillis, maxDownMillis,
        nodes, roles);
  }
}
