package org.locus.energy.policy;

/**
 * Seed 000 §4.3.3 "Prediction for Wake-Ups": "when map tasks fetch the last block of primary
 * data, backup disks are immediately waked up", so they are active when the job's output (and
 * its backup replicas) are written, or when a fast node helps a slow one from its backups.
 *
 * <p>A node's primary data is drained when the bytes it has served since the read phase began
 * reach its primary bytes less one block (the last block's fetch has started). Healthy reads go
 * to primaries only (see {@code PrimaryFirstNetworkTopology}), so bytes served are primary
 * bytes. The predictor fires once per phase; a new phase begins after writes (new data).
 */
public class PrimaryDrainPredictor {
  private final long blockSize;
  private long phaseStartBytesRead = -1;
  private boolean fired;

  public PrimaryDrainPredictor(long blockSize) {
    this.blockSize = blockSize;
  }

  /** A new read phase: the node's data changed (bulk import, job output) or at start. */
  public void newPhase(long bytesReadNow) {
    phaseStartBytesRead = bytesReadNow;
    fired = false;
  }

  /**
   * @param bytesReadNow the DataNode's cumulative bytes served
   * @param primaryBytes bytes stored on the node's primary volumes
   * @return true exactly once per phase, when the last primary block is being fetched
   */
  public boolean shouldWake(long bytesReadNow, long primaryBytes) {
    if (fired || phaseStartBytesRead < 0 || primaryBytes <= 0) {
      return false;
    }
    long served = bytesReadNow - phaseStartBytesRead;
    if (served > 0 && served >= primaryBytes - blockSize) {
      fired = true;
      return true;
    }
    return false;
  }
}
