package org.locus.energy.datanode.offload;

import java.util.function.Predicate;

/**
 * What the power manager sees of a DataNode dataset that stages writes for sleeping backups:
 * the dataset built by {@link WriteOffloadingDatasetFactory} implements it besides
 * {@code FsDatasetSpi}. Until {@link #attach} is called nothing is staged.
 */
public interface WriteOffloading {
  /**
   * Starts staging.
   *
   * @param backupAsleep tells, for a backup volume's storage ID, whether that backup is in
   *     standby or spinning up now; called on the DataNode's transfer threads, so it must be
   *     cheap and thread-safe
   */
  void attach(Predicate<String> backupAsleep);

  /** Starts moving staged replicas whose backup is awake, unless a move pass is running. */
  void moveToAwakeBackups();

  /** @return replicas staged on a primary volume and not yet moved */
  int stagedReplicas();

  /** @return replicas ever written to a primary volume instead of a sleeping backup */
  long offloadedReplicas();

  /** @return staged replicas moved to their backup so far */
  long movedReplicas();
}
