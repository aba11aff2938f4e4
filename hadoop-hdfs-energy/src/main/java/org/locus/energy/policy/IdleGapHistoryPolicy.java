package org.locus.energy.policy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/**
 * Beyond the seed (§6.2 names trace-based prediction as future work): predicts the next idle
 * gap of a backup disk from its recent gaps and spins down early when that gap is worth it.
 *
 * <p>The prediction is the median of the last {@value #HISTORY} gaps. If it is at least the
 * drive's break-even time (spin-up energy over the idle-standby power difference, see
 * {@code DiskPowerProfile#breakEvenMillis}), the disk goes to standby after a short confirmation
 * delay instead of the full timeout; otherwise the fixed timeout stands. With no history the
 * first gap after start or a bulk import is assumed long: backups are written once and then
 * rarely read (seed §4.4.4). The drive's own {@code -S} timer stays set to the fixed timeout as
 * a fallback.
 */
public class IdleGapHistoryPolicy implements SpinDownPolicy {
  static final int HISTORY = 8;

  private final long fallbackTimeoutMillis;
  private final long confirmMillis;
  private final long breakEvenMillis;
  private final Deque<Long> gaps = new ArrayDeque<>();

  public IdleGapHistoryPolicy(long fallbackTimeoutMillis, long confirmMillis,
      long breakEvenMillis) {
    this.fallbackTimeoutMillis = fallbackTimeoutMillis;
    this.confirmMillis = Math.min(confirmMillis, fallbackTimeoutMillis);
    this.breakEvenMillis = breakEvenMillis;
  }

  @Override
  public synchronized long standbyAfterMillis() {
    if (gaps.isEmpty()) {
      return confirmMillis;
    }
    return predictedGapMillis() >= breakEvenMillis ? confirmMillis : fallbackTimeoutMillis;
  }

  /** @return the median of the recent idle gaps, or -1 with no history */
  public synchronized long predictedGapMillis() {
    if (gaps.isEmpty()) {
      return -1;
    }
    List<Long> sorted = new ArrayList<>(gaps);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
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
    gaps.addLast(millis);
    while (gaps.size() > HISTORY) {
      gaps.removeFirst();
    }
  }
}
