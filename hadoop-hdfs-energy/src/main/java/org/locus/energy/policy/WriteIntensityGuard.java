package org.locus.energy.policy;

/**
 * Seed 000 §4.4.4: "we prevent backup disks from transitioning into the standby mode under any
 * write-intensive workload", and §4.3.2: bulk copy-in and recovery run in manual mode. The guard
 * trips when a disk's write rate over a sliding window reaches a threshold, and releases after a
 * write-free quiet period. Time is passed in, so the guard is deterministic.
 */
public class WriteIntensityGuard {
  private final double opsPerSecond;
  private final long quietMillis;
  private final long windowMillis;
  private long windowStart = Long.MIN_VALUE;
  private long windowWrites;
  private long lastWriteAt = Long.MIN_VALUE;
  private boolean tripped;

  public WriteIntensityGuard(double opsPerSecond, long quietMillis, long windowMillis) {
    this.opsPerSecond = opsPerSecond;
    this.quietMillis = quietMillis;
    this.windowMillis = windowMillis;
  }

  /** Records {@code writes} write operations seen up to {@code now}; returns {@link #tripped}. */
  public boolean observe(long now, long writes) {
    if (windowStart == Long.MIN_VALUE || now - windowStart >= windowMillis) {
      windowStart = now;
      windowWrites = 0;
    }
    if (writes > 0) {
      lastWriteAt = now;
      windowWrites += writes;
      if (windowWrites >= opsPerSecond * windowMillis / 1000.0) {
        tripped = true;
      }
    } else if (tripped && now - lastWriteAt >= quietMillis) {
      tripped = false;
    }
    return tripped;
  }

  /** @return true while writes are intensive (until the quiet period has passed) */
  public boolean tripped() {
    return tripped;
  }
}
