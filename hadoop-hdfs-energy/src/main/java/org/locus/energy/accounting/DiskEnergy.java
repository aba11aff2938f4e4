package org.locus.energy.accounting;

/**
 * One disk's energy account as the metrics source publishes it (one {@code LocusDisk} record).
 *
 * @param host the DataNode's host
 * @param volume the volume directory
 * @param backup true for a backup disk, false for a primary
 * @param state the current power state
 * @param activeMillis time transferring
 * @param idleMillis time spinning without I/O
 * @param standbyMillis time in standby
 * @param wakingMillis time spinning up
 * @param joules energy from state residency
 * @param baselineJoules energy had the disk always been spinning
 * @param spinUps spin-ups so far
 * @param demandStallMillis spin-up time accesses waited for
 */
public record DiskEnergy(String host, String volume, boolean backup, String state,
    long activeMillis, long idleMillis, long standbyMillis, long wakingMillis, double joules,
    double baselineJoules, long spinUps, long demandStallMillis) {

  public long totalMillis() {
    return activeMillis + idleMillis + standbyMillis + wakingMillis;
  }

  /** @return share of the accounted time in standby, 0..1 */
  public double standbyShare() {
    long total = totalMillis();
    return total == 0 ? 0 : (double) standbyMillis / total;
  }

  /** @return this account less an earlier one of the same disk (an interval's account) */
  public DiskEnergy minus(DiskEnergy earlier) {
    return new DiskEnergy(host, volume, backup, state, activeMillis - earlier.activeMillis,
        idleMillis - earlier.idleMillis, standbyMillis - earlier.standbyMillis,
        wakingMillis - earlier.wakingMillis, joules - earlier.joules,
        baselineJoules - earlier.baselineJoules, spinUps - earlier.spinUps,
        demandStallMillis - earlier.demandStallMillis);
  }
}
