package org.locus.energy.replay;

import java.io.File;

import org.locus.energy.accounting.EnergyLedger;
import org.locus.energy.datanode.BackupDisk;
import org.locus.energy.disk.BlockDevice;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.disk.DiskPowerState;
import org.locus.energy.disk.SimulatedDiskBackend;
import org.locus.energy.policy.SpinDownPolicy;
import org.locus.energy.policy.WriteIntensityGuard;

/**
 * Replays an {@link AccessTrace} through the power manager's own per-disk state machine
 * ({@link BackupDisk}) on a virtual clock, ticking every poll interval as the DataNode plug-in
 * does: the same spin-down policies, minimum residency, accounting and spin-up stalls, hours of
 * a backup disk's life in milliseconds. This is how the spin-down policies are compared on
 * traces (seed 000 §6.2 asks for trace-based prediction); the disk is simulated from a
 * {@link DiskPowerProfile}.
 */
public final class SpinDownReplay {
  private final DiskPowerProfile profile;
  private final long tickMillis;
  private final long minResidencyMillis;

  /**
   * @param profile the drive (or array) replayed
   * @param tickMillis the power manager's poll interval
   * @param minResidencyMillis least time up after a spin-up
   */
  public SpinDownReplay(DiskPowerProfile profile, long tickMillis, long minResidencyMillis) {
    if (tickMillis <= 0 || minResidencyMillis < 0) {
      throw new IllegalArgumentException("tick must be positive and residency not negative,"
          + " got " + tickMillis + " and " + minResidencyMillis + " ms");
    }
    this.profile = profile;
    this.tickMillis = tickMillis;
    this.minResidencyMillis = minResidencyMillis;
  }

  /** What one policy did over one trace. */
  public record Outcome(EnergyLedger.Snapshot ledger, long demandSpinUps) {
    public double joules() {
      return ledger.joules();
    }

    /** @return energy had the disk always been spinning, same accesses */
    public double alwaysOnJoules() {
      return ledger.baselineJoules();
    }

    public long spinUps() {
      return ledger.spinUps();
    }

    /** @return total time accesses waited for spin-ups */
    public long stallMillis() {
      return ledger.demandStallMillis();
    }

    public double standbyShare() {
      return ledger.share(DiskPowerState.STANDBY);
    }
  }

  /** Replays {@code trace} with {@code policy}, starting spinning and idle. */
  public Outcome replay(AccessTrace trace, SpinDownPolicy policy) {
    BackupDisk disk = new BackupDisk("replay", true,
        new BlockDevice(new File("replay"), "sim:replay"), new SimulatedDiskBackend(profile),
        profile, policy,
        // one write per access: a trace never looks like a bulk import
        new WriteIntensityGuard(Double.MAX_VALUE, 0, tickMillis), minResidencyMillis, false,
        null);
    disk.start(0);
    long[] accesses = trace.accessMillis();
    int next = 0;
    long demandSpinUps = 0;
    for (long now = tickMillis; now <= trace.durationMillis(); now += tickMillis) {
      int writes = 0;
      while (next < accesses.length && accesses[next] < now) {
        writes++;
        next++;
      }
      boolean asleep = disk.state() == DiskPowerState.STANDBY;
      disk.tick(now, 0, writes);
      if (writes > 0 && asleep) {
        demandSpinUps++;
      }
    }
    return new Outcome(disk.ledger().snapshot(), demandSpinUps);
  }

  /**
   * The offline optimum for the trace: before every idle gap the disk either stays spinning
   * (idle watts for the whole gap) or spins down at once and up just in time (standby watts,
   * plus one spin-up), whichever costs less — what a policy that knew the future would spend.
   * Access time itself is not counted (it is the same for every policy).
   */
  public double offlineOptimumJoules(AccessTrace trace) {
    long[] accesses = trace.accessMillis();
    double joules = 0;
    long previous = 0;
    for (int i = 0; i <= accesses.length; i++) {
      long end = i < accesses.length ? accesses[i] : trace.durationMillis();
      long gap = end - previous;
      double stayUp = profile.idleWatts() * gap / 1000.0;
      double sleep;
      if (i == accesses.length) {
        sleep = profile.standbyWatts() * gap / 1000.0; // nothing to be ready for
      } else if (gap >= profile.spinUpMillis()) {
        sleep = (profile.standbyWatts() * (gap - profile.spinUpMillis())
            + profile.spinUpWatts() * profile.spinUpMillis()) / 1000.0;
      } else {
        sleep = Double.MAX_VALUE; // too short to spin down and be back in time
      }
      joules += Math.min(stayUp, sleep);
      previous = end;
    }
    return joules;
  }
}
