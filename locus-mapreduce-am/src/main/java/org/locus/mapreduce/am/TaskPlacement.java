package org.locus.mapreduce.am;

import java.util.List;

/**
 * Where a job's tasks must run: the policy of the Locus MapReduce AM. The mechanism, asking
 * YARN for those hosts and refusing containers elsewhere, is
 * {@link org.apache.hadoop.mapreduce.v2.app.rm.LocusRMContainerAllocator}.
 *
 * <p>A job names its placement's class in {@link LocusAmConfigKeys#TASK_PLACEMENT}. The AM
 * creates one instance when it starts, through Hadoop's {@code ReflectionUtils}, so a placement
 * that implements {@code Configurable} gets the job's configuration first. It is then asked from
 * the allocator's thread only.
 */
public interface TaskPlacement {
  /**
   * @param partition a reducer's partition, {@code 0 <= partition < reducers}
   * @return the host that reducer must run on, or {@code null} for any host (as stock)
   */
  String reducerHost(int partition);

  /**
   * @return whether a map waits for a host its split names: a container on any other host is
   *     refused while the job's refusal budget lasts (stock MapReduce runs the map there)
   */
  boolean mapsWaitForTheirHosts();

  /**
   * The map's locality tiers: for each tier a feature adds around node-local, the hosts where
   * the map is at that tier (BoostDFS: superlocal on the host holding the split on a two-device
   * REPLICATED volume; energy-efficient HDFS: backup-local on a host holding it only on a backup
   * volume). A map container on a host goes to the pending maps listed for that host in the
   * order of their tier's {@linkplain LocalityTier#rank rank} there, node-local being 0, and the
   * AM counts each attempt given a container at a tier in the tier's counter
   * ({@link LocalityTier#COUNTER_GROUP}). Where several of a map's tiers name one host, the map
   * is at the lowest-ranked of them there, the first listed among equals.
   *
   * @param mapIndex a map's index in the job, {@code 0 <= mapIndex < maps}
   * @return its tiers with their hosts; empty (the default) for none: node-local, rack-local,
   *     any, as stock
   */
  default List<TierHosts> mapTiers(int mapIndex) {
    return List.of();
  }
}
