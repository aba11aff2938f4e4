package org.locus.mapreduce.am;

import java.util.Collection;
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
   * The map's superlocal hosts: hosts among its split's where it runs better than on the
   * split's other hosts (BoostDFS: the host holding the split on a two-device REPLICATED
   * volume). A container on such a host goes to a map that is superlocal there before any map
   * that is merely node-local there; the levels are so superlocal, node-local, rack-local, any,
   * and the AM counts the first in {@link LocusJobCounter#SUPERLOCAL_MAPS}.
   *
   * @param mapIndex a map's index in the job, {@code 0 <= mapIndex < maps}
   * @return its superlocal hosts; empty (the default) for none, as stock
   */
  default Collection<String> superlocalHosts(int mapIndex) {
    return List.of();
  }

  /**
   * The map's backup hosts: hosts among its split's that hold the split only on a copy meant to
   * be read last (energy-efficient HDFS: a backup volume, in standby while the primary serves).
   * A container on such a host goes to a map that is merely backup-local there only after every
   * map superlocal or node-local there, so a host first works through the data it holds as
   * primary and then helps with maps still waiting elsewhere (seed 000's fast node). The AM
   * counts such launches in {@link LocusJobCounter#BACKUP_LOCAL_MAPS}.
   *
   * @param mapIndex a map's index in the job, {@code 0 <= mapIndex < maps}
   * @return its backup hosts; empty (the default) for none, as stock
   */
  default Collection<String> backupHosts(int mapIndex) {
    return List.of();
  }
}
