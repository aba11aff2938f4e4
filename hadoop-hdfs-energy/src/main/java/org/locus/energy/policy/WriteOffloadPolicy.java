package org.locus.energy.policy;

/**
 * When a write meant for a backup volume goes to the node's primary volume instead, and when it
 * moves on to the backup: write off-loading (Narayanan et al., FAST 2008) applied to the seed's
 * write-intensive case (seed 000 §4.4.4). A write is staged only while its backup sleeps or is
 * still spinning up, so a write never waits for a spin-up and never causes one, and only while
 * the node's staged data stays within its bound; a staged replica moves once its backup is
 * awake for another reason (a read that needed it, a predicted or requested wake, or a write
 * beyond the bound).
 */
public final class WriteOffloadPolicy {
  private final boolean enabled;
  private final long maxStagedBytes;

  /**
   * @param enabled whether writes are ever staged
   * @param maxStagedBytes most bytes staged on one node at a time
   */
  public WriteOffloadPolicy(boolean enabled, long maxStagedBytes) {
    if (maxStagedBytes <= 0) {
      throw new IllegalArgumentException("maxStagedBytes must be positive, got " + maxStagedBytes);
    }
    this.enabled = enabled;
    this.maxStagedBytes = maxStagedBytes;
  }

  /**
   * @param backupAsleep whether the backup the write is meant for is in standby or spinning up
   * @param stagedBytes bytes this node has staged already
   * @param blockBytes the most the new replica can hold (the block size)
   * @return true to write the replica to the primary volume now and move it later
   */
  public boolean stage(boolean backupAsleep, long stagedBytes, long blockBytes) {
    return enabled && backupAsleep && stagedBytes + blockBytes <= maxStagedBytes;
  }

  /** @return true to move a staged replica to its backup now */
  public boolean move(boolean backupAsleep) {
    return !backupAsleep;
  }

  public boolean enabled() {
    return enabled;
  }

  public long maxStagedBytes() {
    return maxStagedBytes;
  }
}
