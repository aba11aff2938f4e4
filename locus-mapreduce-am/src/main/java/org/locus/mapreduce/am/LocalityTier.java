package org.locus.mapreduce.am;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;

/**
 * A level of map locality a feature adds around stock node-local, such as BoostDFS's
 * "superlocal" or energy-efficient HDFS's "backup-local". A {@link TaskPlacement} names, for each
 * map, the hosts where the map is at one of its tiers ({@link TierHosts}); the AM hands a map
 * container on a host to the pending maps listed for that host in the order of their tier's
 * rank there, node-local (a host the split names, at no tier) being rank 0, and counts each map
 * attempt given a container at a tier in the job counter named for the tier.
 *
 * <p>So with a tier of rank -1 and one of rank 1 the levels are: rank -1, node-local, rank 1,
 * then rack-local and any, as stock. A tier of rank 0 is counted but ordered as node-local.
 *
 * @param name the tier's name, also the name of its job counter in {@link #COUNTER_GROUP}
 *     (Hadoop cuts counter names at {@code mapreduce.job.counters.counter.name.max}, 64 by
 *     default)
 * @param rank where the tier's maps come relative to node-local (0): below 0 before the maps
 *     merely node-local on the host, above 0 after them
 */
public record LocalityTier(String name, int rank) {
  /**
   * The job counter group of the maps per tier: one counter per tier, named as the tier, counted
   * at assignment as the stock {@code DATA_LOCAL_MAPS} is (an attempt killed before it starts
   * counts too). Display name "Locus Locality Tiers", from {@code LocalityTier.properties}.
   */
  public static final String COUNTER_GROUP = LocalityTier.class.getName();

  public LocalityTier {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a locality tier needs a name (its job counter's name),"
          + " got " + (name == null ? "null" : "'" + name + "'"));
    }
  }

  /**
   * @param counters a job's counters
   * @return this tier's counter among them: the map attempts the AM gave a container at this
   *     tier (0 for a job that counted none)
   */
  public Counter counterIn(Counters counters) {
    return counters.findCounter(COUNTER_GROUP, name);
  }
}
