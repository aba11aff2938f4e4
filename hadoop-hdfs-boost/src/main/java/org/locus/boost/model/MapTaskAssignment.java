package org.locus.boost.model;

import java.util.Random;

/**
 * Monte Carlo estimate of the remote-map-task fraction: samples random replica layouts of k
 * blocks per server on n servers and assigns tasks by one {@link AssignmentRule}. Deterministic
 * for a given seed.
 */
public final class MapTaskAssignment {
  private final int servers;
  private final int blocksPerServer;
  private final int slots;
  private final int trials;
  private final long seed;

  /**
   * @param servers n, &ge; 1
   * @param blocksPerServer k, &ge; 1 (blocks = kn)
   * @param slots map slots per server (used by {@link AssignmentRule#GREEDY} only)
   * @param trials independent layouts to average over, &ge; 1
   * @param seed the random seed
   */
  public MapTaskAssignment(int servers, int blocksPerServer, int slots, int trials, long seed) {
    if (servers < 1 || blocksPerServer < 1 || slots < 1 || trials < 1) {
      throw new IllegalArgumentException("servers, blocks per server, slots and trials must be"
          + " >= 1, got " + servers + ", " + blocksPerServer + ", " + slots + ", " + trials);
    }
    if ((long) servers * blocksPerServer > 50_000_000L) {
      throw new IllegalArgumentException("servers x blocks per server = "
          + (long) servers * blocksPerServer + " exceeds the simulation's 50,000,000 blocks");
    }
    this.servers = servers;
    this.blocksPerServer = blocksPerServer;
    this.slots = slots;
    this.trials = trials;
    this.seed = seed;
  }

  /** @return ρ under {@code rule} with r copies per block on distinct servers */
  public double remoteFraction(AssignmentRule rule, int copies) {
    Random random = new Random(seed);
    double remote = 0;
    long total = 0;
    for (int t = 0; t < trials; t++) {
      ReplicaLayout layout = ReplicaLayout.random(servers, servers * blocksPerServer, copies,
          random);
      total += layout.blocks();
      remote += switch (rule) {
        case GREEDY -> GreedyLocalFirstScheduler.assign(layout, slots, false, random).remote();
        case DESIGNATED -> StaticBalanceAssignment.designatedCopy(layout, random);
        case MATCHING -> StaticBalanceAssignment.bestMatching(layout);
        case SHORTFALL -> StaticBalanceAssignment.appendixShortfall(layout);
      };
    }
    return remote / total;
  }

  /**
   * @param copies copies per block on distinct servers; copy 0 is the REPLICATED one
   * @param superlocalLevel whether the scheduler prefers the REPLICATED copy's server
   * @return the greedy scheduler's task counts summed over all trials
   */
  public TaskShares greedyShares(int copies, boolean superlocalLevel) {
    return greedyShares(copies, superlocalLevel, 1);
  }

  /**
   * @param copies copies per block on distinct servers; copy 0 is the REPLICATED one
   * @param superlocalLevel whether the scheduler prefers the REPLICATED copy's server
   * @param replicatedChoices servers compared for copy 0 ({@link ReplicaLayout#spread}); 1 is
   *     the uniform random placement of the seed's model
   * @return the greedy scheduler's task counts summed over all trials
   */
  public TaskShares greedyShares(int copies, boolean superlocalLevel, int replicatedChoices) {
    Random random = new Random(seed);
    TaskShares sum = new TaskShares(0, 0, 0);
    for (int t = 0; t < trials; t++) {
      int blocks = servers * blocksPerServer;
      ReplicaLayout layout = replicatedChoices == 1
          ? ReplicaLayout.random(servers, blocks, copies, random)
          : ReplicaLayout.spread(servers, blocks, copies, replicatedChoices, random);
      sum = sum.plus(GreedyLocalFirstScheduler.assign(layout, slots, superlocalLevel, random));
    }
    return sum;
  }
}
