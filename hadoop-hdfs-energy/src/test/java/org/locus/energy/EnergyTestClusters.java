package org.locus.energy;

import java.util.function.BooleanSupplier;

import org.locus.kit.LocusMiniCluster;

/** The feature's keys for test clusters, and polling with a deadline. */
final class EnergyTestClusters {
  private EnergyTestClusters() {
  }

  /** Turns the feature on with simulated disks and test-sized timings. */
  static LocusMiniCluster.Builder withEnergyFeature(LocusMiniCluster.Builder builder) {
    for (String[] kv : EnergyConfigKeys.STOCK_KEYS) {
      builder.set(kv[0], kv[1]);
    }
    return builder
        .set(EnergyConfigKeys.BACKEND, "simulated")
        .set(EnergyConfigKeys.POLL_INTERVAL_MS, "100")
        .set(EnergyConfigKeys.STANDBY_TIMEOUT_MS, "2000")
        .set(EnergyConfigKeys.MIN_RESIDENCY_MS, "1000")
        .set(EnergyConfigKeys.WRITE_GUARD_QUIET_MS, "1000");
  }

  /** Polls {@code condition} every 100 ms until it holds or {@code millis} pass. */
  static void await(String what, long millis, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + millis + " ms waiting for " + what);
      }
      Thread.sleep(100);
    }
  }
}
