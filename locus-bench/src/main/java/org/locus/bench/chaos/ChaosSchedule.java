package org.locus.bench.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * When, where and for how long a chaos run kills a daemon. Drawn from a seed, so a run can be
 * repeated fault for fault: every {@code every} a random worker's DataNode or NodeManager is
 * killed with SIGKILL and started again a random time later, shorter than {@code every}, so at
 * most one daemon is down at any moment (what HDFS promises to survive with r ≥ 2). The last
 * fault is restarted before the run's end.
 *
 * @param seed the seed the faults were drawn from
 * @param faults the faults, in time order
 */
public record ChaosSchedule(long seed, List<Fault> faults) {
  /**
   * One fault.
   *
   * @param atMillis when the daemon is killed, from the run's start
   * @param node the worker, {@code node1}..{@code nodeN}
   * @param role the daemon's role word, e.g. {@code datanode}
   * @param downMillis how long it stays down before it is started again
   */
  public record Fault(long atMillis, String node, String role, long downMillis) {
    /** @return when the daemon is started again, from the run's start */
    public long restartMillis() {
      return atMillis + downMillis;
    }
  }

  public ChaosSchedule {
    faults = List.copyOf(faults);
  }

  /**
   * @param seed the seed
   * @param durationMillis the run's length
   * @param everyMillis time between two kills
   * @param minDownMillis shortest time a killed daemon stays down
   * @param maxDownMillis longest; must be shorter than {@code everyMillis}
   * @param nodes the cluster's workers
   * @param roles the role words a fault may pick from
   * @throws IllegalArgumentException naming the value that cannot make a schedule
   */
  public static ChaosSchedule plan(long seed, long durationMillis, long everyMillis,
      long minDownMillis, long maxDownMillis, int nodes, List<String> roles) {
    if (everyMillis <= 0) {
      throw new IllegalArgumentException("the time between kills must be > 0");
    }
    if (minDownMillis <= 0 || maxDownMillis < minDownMillis) {
      throw new IllegalArgumentException("the down time must be a range MIN-MAX with"
          + " 0 < MIN <= MAX, got " + minDownMillis + "-" + maxDownMillis + " ms");
    }
    if (maxDownMillis >= everyMillis) {
      throw new IllegalArgumentException("the longest down time (" + maxDownMillis
          + " ms) must be shorter than the time between kills (" + everyMillis
          + " ms): one daemon down at a time");
    }
    if (nodes < 1 || roles.isEmpty()) {
      throw new IllegalArgumentException("a schedule needs a node and a role to kill");
    }
    Random random = new Random(seed);
    List<Fault> faults = new ArrayList<>();
    for (long at = everyMillis; at + maxDownMillis <= durationMillis; at += everyMillis) {
      String node = "node" + (1 + random.nextInt(nodes));
      String role = roles.get(random.nextInt(roles.size()));
      long down = minDownMillis + (long) (random.nextDouble() * (maxDownMillis - minDownMillis));
      faults.add(new Fault(at, node, role, down));
    }
    return new ChaosSchedule(seed, faults);
  }
}
