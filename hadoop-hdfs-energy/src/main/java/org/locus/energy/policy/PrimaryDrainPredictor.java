package org.locus.energy.policy;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Seed 000 §4.3.3 "Prediction for Wake-Ups": "when map tasks fetch the last block of primary
 * data, backup disks are immediately waked up", so they are active when the job's output (and
 * its backup replicas) are written, or when a fast node helps a slow one from its backups.
 *
 * <p>A node's primary data is drained when the bytes it has served since the read phase began
 * reach its primary bytes less one block (the last block's fetch has started). Healthy reads go
 * to primaries only (see {@code PrimaryFirstNetworkTopology}), so bytes served are primary
 * bytes. The predictor fires once per phase; a new phase begins after writes (new data).
 *
 * <p><b>Lead time</b> (beyond the seed): a spin-up takes seconds, and a job's output often
 * follows its last read by less than that, so waking at the last block still makes the writer
 * wait. With a lead time {@code L} (normally the drive's spin-up time) the predictor also fires
 * when the remaining primary bytes would be drained within {@code L} at the rate they were
 * served over the last {@code 2L}: the disk is spinning when the drain ends.
 */
public class PrimaryDrainPredictor {
  private final long blockSize;
  private final long leadMillis;
  private final Deque<long[]> samples = new ArrayDeque<>();
  private long phaseStartBytesRead = -1;
  private boolean fired;

  /** The seed's rule alone: fire when the last block is being fetched. */
  public PrimaryDrainPredictor(long blockSize) {
    this(blockSize, 0);
  }

  /**
   * @param blockSize the block size, the margin of the seed's rule
   * @param leadMillis how long before the projected drain to fire; 0 = the seed's rule alone
   */
  public PrimaryDrainPredictor(long blockSize, long leadMillis) {
    if (blockSize <= 0 || leadMillis < 0) {
      throw new IllegalArgumentException("block size must be positive and lead time not"
          + " negative, got " + blockSize + " and " + leadMillis);
    }
    this.blockSize = blockSize;
    this.leadMillis = leadMillis;
  }

  /** A new read phase: the node's data changed (bulk import, job output) or at start. */
  public void newPhase(long bytesReadNow) {
    phaseStartBytesRead = bytesReadNow;
    fired = false;
    samples.clear();
  }

  /**
   * The seed's rule only, for callers without a clock.
   *
   * @see #shouldWake(long, long, long)
   */
  public boolean shouldWake(long bytesReadNow, long primaryBytes) {
    return shouldWake(0, bytesReadNow, primaryBytes);
  }

  /**
   * @param nowMillis a monotonic clock
   * @param bytesReadNow the DataNode's cumulative bytes served
   * @param primaryBytes bytes stored on the node's primary volumes
   * @return true exactly once per phase: when the last primary block is being fetched, or
   *     when the rest will be drained within the lead time at the recent rate
   */
  public boolean shouldWake(long nowMillis, long bytesReadNow, long primaryBytes) {
    if (fired || phaseStartBytesRead < 0 || primaryBytes <= 0) {
      return false;
    }
    long served = bytesReadNow - phaseStartBytesRead;
    if (served > 0 && (served >= primaryBytes - blockSize
        || drainsWithinLead(nowMillis, served, primaryBytes - served))) {
      fired = true;
      return true;
    }
    return false;
  }

  private boolean drainsWithinLead(long now, long served, long remaining) {
    if (leadMillis == 0) {
      return false;
    }
    samples.addLast(new long[] {now, served});
    long window = 2 * leadMillis;
    // keep one sample at least a window old, drop the ones before it
    while (samples.size() > 1 && now - secondOldest()[0] >= window) {
      samples.removeFirst();
    }
    long[] oldest = samples.peekFirst();
    long elapsed = now - oldest[0];
    // a rate needs a full window behind it: the start of a job is a burst, not a trend
    if (elapsed < window) {
      return false;
    }
    double bytesPerMilli = (served - oldest[1]) / (double) elapsed;
    return bytesPerMilli > 0 && remaining / bytesPerMilli <= leadMillis;
  }

  private long[] secondOldest() {
    var it = samples.iterator();
    it.next();
    return it.next();
  }
}
