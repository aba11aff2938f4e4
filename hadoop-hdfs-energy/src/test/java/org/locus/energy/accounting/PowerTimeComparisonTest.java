package org.locus.energy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.disk.DiskPowerState;

/** Seed 000 §4.4.3's own numbers through Eq. 4.2 and 4.3, and the ledger's arithmetic. */
class PowerTimeComparisonTest {
  private static final double KWH = 3.6e6;
  // seed: energy-efficient 0.26 kWh in 162 min, native 0.32 kWh in 153 min
  private final PowerTimeComparison seed =
      new PowerTimeComparison(0.26 * KWH, 162 * 60, 0.32 * KWH, 153 * 60);

  @Test
  void powerTimeOfTheSeedIsThirteenPointNinesevenPercentLower() {
    assertEquals(42.12 / 48.96, seed.powerTimeRatio(), 1e-9);
    assertEquals(-13.97, (seed.powerTimeRatio() - 1) * 100, 0.01);
    assertEquals(0.8125, seed.energyRatio(), 1e-9);
    assertEquals(1.0588, seed.timeRatio(), 1e-4);
  }

  @Test
  void ptcFavoursTheEnergyEfficientSystemAboveAlphaOfAboutPointTwo() {
    double alpha = seed.crossoverAlpha();
    assertEquals(0.216, alpha, 0.001);
    assertTrue(seed.ptc(0.1).system() > seed.ptc(0.1).baseline());
    assertTrue(seed.ptc(0.3).system() < seed.ptc(0.3).baseline());
    assertEquals(11, seed.ptcCurve().size());
  }

  @Test
  void ledgerChargesEachStateAtItsDatasheetPowerAndTheBaselineAsAlwaysSpinning() {
    EnergyLedger ledger = new EnergyLedger(DiskPowerProfile.BARRACUDA_7200_14);
    ledger.account(DiskPowerState.STANDBY, 10_000, false);
    ledger.account(DiskPowerState.WAKING, 10_000, true);
    ledger.account(DiskPowerState.ACTIVE, 1_000, true);
    ledger.spinUp(true);
    assertEquals(0.75 * 10 + 24.0 * 10 + 6.0, ledger.joules(), 1e-9);
    assertEquals(4.6 * 10 + 6.0 * 10 + 6.0, ledger.baselineJoules(), 1e-9);
    assertEquals(10_000, ledger.demandStallMillis());
    assertEquals(10_000.0 / 21_000, ledger.snapshot().share(DiskPowerState.STANDBY), 1e-9);
  }
}
