package org.locus.energy.disk;

/**
 * Power draw of one disk in each state and its spin-up time.
 *
 * <p>Defaults are from a real 3.5-inch 7200 rpm SATA drive, the Seagate Barracuda 7200.14
 * (ST1000DM003) Product Manual, publication 100686991, §2.7 "Power specifications": operating
 * (read/write) average 6.0 W, idle average 4.6 W, standby 0.75 W, sleep 0.75 W, and "time to
 * ready" up to about 10 s with a spin-up current peak of 2 A at 12 V (we take 24 W as spin-up
 * power). Every number can be overridden by a key ({@code EnergySettings} reads them), e.g. to
 * another drive's datasheet.
 *
 * @param activeWatts power while transferring data
 * @param idleWatts power while spinning without I/O
 * @param standbyWatts power with the spindle stopped
 * @param spinUpWatts power while spinning up
 * @param spinUpMillis time from standby to ready
 */
public record DiskPowerProfile(double activeWatts, double idleWatts, double standbyWatts,
    double spinUpWatts, long spinUpMillis) {

  public static final DiskPowerProfile BARRACUDA_7200_14 =
      new DiskPowerProfile(6.0, 4.6, 0.75, 24.0, 10_000);

  public DiskPowerProfile {
    if (activeWatts < 0 || idleWatts < 0 || standbyWatts < 0 || spinUpWatts < 0
        || spinUpMillis < 0) {
      throw new IllegalArgumentException("disk power profile needs non-negative values: "
          + activeWatts + "/" + idleWatts + "/" + standbyWatts + "/" + spinUpWatts + " W, "
          + spinUpMillis + " ms");
    }
  }

  /** @return the profile of {@code drives} such drives spinning up and down together */
  public DiskPowerProfile times(int drives) {
    return new DiskPowerProfile(activeWatts * drives, idleWatts * drives, standbyWatts * drives,
        spinUpWatts * drives, spinUpMillis);
  }

  /** @return watts drawn in {@code state} */
  public double watts(DiskPowerState state) {
    switch (state) {
      case ACTIVE:
        return activeWatts;
      case IDLE:
        return idleWatts;
      case STANDBY:
        return standbyWatts;
      default:
        return spinUpWatts;
    }
  }

  /**
   * Break-even idle time: a standby period shorter than this costs more energy (spin-up) than
   * it saves. Used by the history-based spin-down policy.
   */
  public long breakEvenMillis() {
    double saved = idleWatts - standbyWatts;
    if (saved <= 0) {
      return Long.MAX_VALUE;
    }
    double extraSpinUpJoules = (spinUpWatts - idleWatts) * spinUpMillis / 1000.0;
    return Math.max(0, (long) (extraSpinUpJoules / saved * 1000.0)) + spinUpMillis;
  }
}
