package org.locus.energy.accounting;

import java.util.EnumMap;
import java.util.Map;

import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.disk.DiskPowerState;

/**
 * Energy of one disk from its measured state residency: joules = Σ residency(state) ×
 * watts(state). Beside it runs the baseline the seed compares against (native HDFS, every disk
 * always spinning): the same time and the same I/O, with standby and spin-up replaced by idle.
 * Not thread-safe; its owner synchronises.
 */
public class EnergyLedger {
  private final DiskPowerProfile profile;
  private final Map<DiskPowerState, Long> residencyMillis = new EnumMap<>(DiskPowerState.class);
  private double joules;
  private double baselineJoules;
  private long spinUps;
  private long demandStallMillis;

  public EnergyLedger(DiskPowerProfile profile) {
    this.profile = profile;
    for (DiskPowerState s : DiskPowerState.values()) {
      residencyMillis.put(s, 0L);
    }
  }

  /** Accounts {@code millis} spent in {@code state}; {@code io} says whether I/O happened. */
  public void account(DiskPowerState state, long millis, boolean io) {
    if (millis <= 0) {
      return;
    }
    residencyMillis.merge(state, millis, Long::sum);
    joules += profile.watts(state) * millis / 1000.0;
    DiskPowerState baseline = io ? DiskPowerState.ACTIVE : DiskPowerState.IDLE;
    baselineJoules += profile.watts(baseline) * millis / 1000.0;
  }

  /** Counts a spin-up; {@code demand} = an access waited for it (not woken ahead of need). */
  public void spinUp(boolean demand) {
    spinUps++;
    if (demand) {
      demandStallMillis += profile.spinUpMillis();
    }
  }

  /** Counts time an access waited for a spin-up that had started ahead of need. */
  public void stall(long millis) {
    demandStallMillis += Math.max(0, millis);
  }

  public long residencyMillis(DiskPowerState state) {
    return residencyMillis.get(state);
  }

  public long totalMillis() {
    return residencyMillis.values().stream().mapToLong(Long::longValue).sum();
  }

  public double joules() {
    return joules;
  }

  public double baselineJoules() {
    return baselineJoules;
  }

  public long spinUps() {
    return spinUps;
  }

  /** @return spin-up time that accesses waited for (spin-ups on demand × spin-up time) */
  public long demandStallMillis() {
    return demandStallMillis;
  }

  /** @return an immutable copy of the counters */
  public Snapshot snapshot() {
    return new Snapshot(new EnumMap<>(residencyMillis), joules, baselineJoules, spinUps,
        demandStallMillis);
  }

  /** A point-in-time copy; {@link #minus} gives the counters of an interval. */
  public record Snapshot(Map<DiskPowerState, Long> residencyMillis, double joules,
      double baselineJoules, long spinUps, long demandStallMillis) {

    public long totalMillis() {
      return residencyMillis.values().stream().mapToLong(Long::longValue).sum();
    }

    /** @return the share of the accounted time spent in {@code state}, 0..1 */
    public double share(DiskPowerState state) {
      long total = totalMillis();
      return total == 0 ? 0 : (double) residencyMillis.get(state) / total;
    }

    public Snapshot minus(Snapshot earlier) {
      Map<DiskPowerState, Long> r = new EnumMap<>(DiskPowerState.class);
      for (DiskPowerState s : DiskPowerState.values()) {
        r.put(s, residencyMillis.get(s) - earlier.residencyMillis.get(s));
      }
      return new Snapshot(r, joules - earlier.joules, baselineJoules - earlier.baselineJoules,
          spinUps - earlier.spinUps, demandStallMillis - earlier.demandStallMillis);
    }
  }
}
