package org.locus.energy.policy;

/**
 * When an idle backup disk should stop its spindle. Implementations are small siblings: the
 * seed's fixed timeout ({@link FixedTimeoutPolicy}) and a history-based predictor of idle gaps
 * ({@link IdleGapHistoryPolicy}, seed 000 §6.2 future work).
 */
public interface SpinDownPolicy {

  /** @return idle time after the last access from which the disk should be in standby */
  long standbyAfterMillis();

  /**
   * @return true when the manager must issue the spin-down itself at
   *     {@link #standbyAfterMillis()} (manual, {@code hdparm -y}); false when the drive's own
   *     timer ({@code hdparm -S}) does it (automatic)
   */
  boolean managerIssuesSpinDown();

  /** @return the idle timeout the drive's own timer ({@code hdparm -S}) is set to */
  long standbyAfterMillisForDrive();

  /** Learns from one finished idle gap, ended by an access after {@code millis} of idleness. */
  void observeIdleGap(long millis);
}
