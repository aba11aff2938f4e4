package org.locus.energy.accounting;

import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000 §4.4.3: PowerTime {@code Pt = P × T} (Eq. 4.2) and the weighted comparison
 * {@code Ptc = α·P/P' + β·T/T'} with β = 1 − α, where P' and T' are the sums over the two
 * systems (Eq. 4.3). The seed's P is the measured consumption in kWh — its Pt values are
 * 0.26 kWh × 162 min = 42.12 and 0.32 × 153 = 48.96 — so here P is the energy of the run and
 * {@code Pt = E × T}. A system is preferred at α where its Ptc is lower.
 *
 * @param energyJoules energy of the system under test
 * @param seconds its time
 * @param baselineJoules energy of the baseline (native HDFS)
 * @param baselineSeconds its time
 */
public record PowerTimeComparison(double energyJoules, double seconds, double baselineJoules,
    double baselineSeconds) {

  /** One point of the Ptc curve: α and the two systems' Ptc values. */
  public record PtcPoint(double alpha, double system, double baseline) {
  }

  /** Eq. 4.2 for the system under test (J·s). */
  public double powerTime() {
    return energyJoules * seconds;
  }

  public double baselinePowerTime() {
    return baselineJoules * baselineSeconds;
  }

  public double energyRatio() {
    return energyJoules / baselineJoules;
  }

  public double timeRatio() {
    return seconds / baselineSeconds;
  }

  public double powerTimeRatio() {
    return powerTime() / baselinePowerTime();
  }

  /** Eq. 4.3 at α (β = 1 − α) for both systems. */
  public PtcPoint ptc(double alpha) {
    double pSum = energyJoules + baselineJoules;
    double tSum = seconds + baselineSeconds;
    double beta = 1 - alpha;
    return new PtcPoint(alpha,
        alpha * energyJoules / pSum + beta * seconds / tSum,
        alpha * baselineJoules / pSum + beta * baselineSeconds / tSum);
  }

  /** @return Ptc at α = 0, 0.1, ..., 1 */
  public List<PtcPoint> ptcCurve() {
    List<PtcPoint> curve = new ArrayList<>();
    for (int i = 0; i <= 10; i++) {
      curve.add(ptc(i / 10.0));
    }
    return curve;
  }

  /**
   * @return the α at which both systems' Ptc are equal (the system wins above it when it saves
   *     energy and costs time), or NaN when one system wins or loses at every α
   */
  public double crossoverAlpha() {
    double pSum = energyJoules + baselineJoules;
    double tSum = seconds + baselineSeconds;
    double dp = (energyJoules - baselineJoules) / pSum;
    double dt = (seconds - baselineSeconds) / tSum;
    // α·dp + (1 − α)·dt = 0
    if (dp == dt) {
      return Double.NaN;
    }
    double alpha = dt / (dt - dp);
    return alpha >= 0 && alpha <= 1 ? alpha : Double.NaN;
  }
}
