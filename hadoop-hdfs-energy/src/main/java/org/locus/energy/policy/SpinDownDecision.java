package org.locus.energy.policy;

/**
 * The one place that decides whether a managed backup disk changes its power mode now (seed 000
 * §4.3.2 automatic and manual modes, §4.4.4 write-intensive work): it combines the spin-down
 * timing ({@link SpinDownPolicy}), the write guard ({@link WriteIntensityGuard}) and the least
 * time a disk stays up after a spin-up. {@code BackupDisk} asks it once per tick, carries the
 * answer out (hdparm, state) and accounts for it; it never decides itself.
 */
public final class SpinDownDecision {

  /** What the disk must do now. */
  public enum Action {
    /** Nothing changes. */
    STAY,
    /** Writes are intensive: switch the drive's timer off (manual mode, {@code -S 0}). */
    ENTER_MANUAL,
    /** Writes are quiet after manual mode: force standby, then restore the drive's timer. */
    LEAVE_MANUAL,
    /** The idle time is up and the manager times it: issue the spin-down itself. */
    ISSUE_SPIN_DOWN,
    /** The idle time is up and the drive's own timer ({@code -S}) spins it down. */
    DRIVE_TIMER_FIRES
  }

  /**
   * What the disk knows at a tick.
   *
   * @param now monotonic time
   * @param writes write operations seen since the last tick
   * @param idle the spindle is up and no I/O happened in the last tick
   * @param manual the disk is in manual mode
   * @param idleMillis time since the last access (or since it became ready after a wake)
   * @param upMillis time since it last became ready
   * @param awaitingAccess it was woken ahead of need and the access has not come yet
   */
  public record Tick(long now, long writes, boolean idle, boolean manual, long idleMillis,
      long upMillis, boolean awaitingAccess) {
  }

  private final SpinDownPolicy timing;
  private final WriteIntensityGuard guard;
  private final long minResidencyMillis;

  public SpinDownDecision(SpinDownPolicy timing, WriteIntensityGuard guard,
      long minResidencyMillis) {
    this.timing = timing;
    this.guard = guard;
    this.minResidencyMillis = minResidencyMillis;
  }

  /** @return what to do now; feeds the write guard, so call it exactly once per tick */
  public Action decide(Tick t) {
    boolean bulk = guard.observe(t.now(), t.writes());
    if (t.manual()) {
      return !bulk && t.idle() && t.upMillis() >= minResidencyMillis
          ? Action.LEAVE_MANUAL : Action.STAY;
    }
    if (bulk) {
      return Action.ENTER_MANUAL;
    }
    // a disk woken for an expected access waits the drive's full timeout for it: an early
    // spin-down learned from gaps between accesses would undo the wake
    long idleLimit = t.awaitingAccess()
        ? Math.max(timing.standbyAfterMillis(), timing.standbyAfterMillisForDrive())
        : timing.standbyAfterMillis();
    if (!t.idle() || t.idleMillis() < idleLimit || t.upMillis() < minResidencyMillis) {
      return Action.STAY;
    }
    return timing.managerIssuesSpinDown() ? Action.ISSUE_SPIN_DOWN : Action.DRIVE_TIMER_FIRES;
  }

  /** @return the timing policy (what the drive's timer is set to, what is learned) */
  public SpinDownPolicy timing() {
    return timing;
  }
}
