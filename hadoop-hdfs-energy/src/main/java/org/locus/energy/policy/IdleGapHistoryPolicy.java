package org.locus.energy.policy;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.stream.LongStream;

import org.locus.energy.disk.DiskPowerProfile;

/**
 * Beyond the seed (§6.2 names trace-based prediction as future work): chooses a backup disk's
 * spin-down timeout from its own recent idle gaps — the timeout that would have spent the least
 * energy over them (rent-to-buy: keep paying idle watts, or pay a spin-up once and standby
 * watts after).
 *
 * <p>For a candidate timeout {@code τ} a gap {@code g < τ} costs {@code idle·g}; a longer one
 * costs {@code idle·τ + standby·(g−τ)} plus the spin-up's energy above idle. The policy keeps
 * the last {@value #HISTORY} gaps (pauses between accesses longer than the confirmation delay;
 * shorter ones are one burst), whether the disk slept through them or not, and picks the
 * cheapest candidate, the longer one on a tie (fewer spin-ups, fewer stalls). With no history it
 * spins down after the confirmation delay: backups are written once and then rarely read (seed
 * §4.4.4). The manager issues the spin-down; the drive's own {@code -S} timer stays at the
 * fixed timeout as a fallback.
 */
public class IdleGapHistoryPolicy implements SpinDownPolicy {
  static final int HISTORY = 64;
  private static final long[] CANDIDATE_SECONDS = {5, 10, 20, 30, 60, 120, 300, 600, 1800};

  private final long fallbackTimeoutMillis;
  private final long confirmMillis;
  private final DiskPowerProfile profile;
  private final long[] candidates;
  private final Deque<Long> gaps = new ArrayDeque<>();
  private long chosen;

  /**
   * @param fallbackTimeoutMillis the drive's own timer, and the longest timeout chosen
   * @param confirmMillis the shortest timeout; gaps up to it are bursts, not gaps
   * @param profile the drive whose energy the choice minimises
   */
  public IdleGapHistoryPolicy(long fallbackTimeoutMillis, long confirmMillis,
      DiskPowerProfile profile) {
    if (fallbackTimeoutMillis <= 0 || confirmMillis <= 0) {
      throw new IllegalArgumentException("timeouts must be positive, got "
          + fallbackTimeoutMillis + " and " + confirmMillis + " ms");
    }
    this.fallbackTimeoutMillis = fallbackTimeoutMillis;
    this.confirmMillis = Math.min(confirmMillis, fallbackTimeoutMillis);
    this.profile = profile;
    this.candidates = LongStream.concat(
        LongStream.of(this.confirmMillis, fallbackTimeoutMillis),
        LongStream.of(CANDIDATE_SECONDS).map(s -> s * 1000))
        .filter(t -> t >= this.confirmMillis && t <= fallbackTimeoutMillis)
        .distinct().sorted().toArray();
    this.chosen = this.confirmMillis;
  }

  @Override
  public synchronized long standbyAfterMillis() {
    return chosen;
  }

  /** @return the gaps the choice is made from, oldest first */
  public synchronized long[] recentGapsMillis() {
    return gaps.stream().mapToLong(Long::longValue).toArray();
  }

  @Override
  public long standbyAfterMillisForDrive() {
    return fallbackTimeoutMillis;
  }

  @Override
  public boolean managerIssuesSpinDown() {
    return true;
  }

  @Override
  public synchronized void observeIdleGap(long millis) {
    if (millis <= confirmMillis) {
      return; // accesses of one burst, not an idle gap
    }
    gaps.addLast(millis);
    while (gaps.size() > HISTORY) {
      gaps.removeFirst();
    }
    chosen = cheapestTimeout();
  }

  private long cheapestTimeout() {
    long best = fallbackTimeoutMillis;
    double bestJoules = Double.MAX_VALUE;
    for (int i = candidates.length - 1; i >= 0; i--) {
      double joules = 0;
      for (long gap : gaps) {
        joules += joules(candidates[i], gap);
      }
      if (joules < bestJoules) {
        bestJoules = joules;
        best = candidates[i];
      }
    }
    return best;
  }

  /** Energy of one gap under a timeout; a gap as long as the timeout counts as slept. */
  double joules(long timeoutMillis, long gapMillis) {
    if (gapMillis < timeoutMillis) {
      return profile.idleWatts() * gapMillis / 1000.0;
    }
    return (profile.idleWatts() * timeoutMillis
        + profile.standbyWatts() * (gapMillis - timeoutMillis)
        + (profile.spinUpWatts() - profile.idleWatts()) * profile.spinUpMillis()) / 1000.0;
  }
}
