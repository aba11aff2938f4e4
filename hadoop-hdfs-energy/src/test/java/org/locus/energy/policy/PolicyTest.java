package org.locus.energy.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The policies alone, with time passed in: write guard, idle-gap history, drain predictor. */
class PolicyTest {

  @Test
  void writeGuardTripsAtTheRateAndReleasesAfterTheQuietPeriod() {
    WriteIntensityGuard guard = new WriteIntensityGuard(2, 1000, 1000);
    assertFalse(guard.observe(0, 1));
    assertTrue(guard.observe(100, 1), "2 writes within one second");
    assertTrue(guard.observe(900, 0), "quiet for 800 ms only");
    assertFalse(guard.observe(1100, 0), "quiet for 1000 ms");
  }

  @Test
  void historyPolicySpinsDownEarlyOnlyWhenRecentGapsPassTheBreakEven() {
    IdleGapHistoryPolicy policy = new IdleGapHistoryPolicy(60_000, 500, 30_000);
    assertEquals(500, policy.standbyAfterMillis(), "no history: backups are rarely read");
    for (int i = 0; i < 5; i++) {
      policy.observeIdleGap(2_000);
    }
    assertEquals(2_000, policy.predictedGapMillis());
    assertEquals(60_000, policy.standbyAfterMillis(), "short gaps: keep the fixed timeout");
    for (int i = 0; i < 5; i++) {
      policy.observeIdleGap(120_000);
    }
    assertEquals(500, policy.standbyAfterMillis(), "long gaps: spin down early");
    assertEquals(60_000, policy.standbyAfterMillisForDrive());
  }

  @Test
  void drainPredictorFiresOnceWhenTheLastPrimaryBlockIsBeingFetched() {
    PrimaryDrainPredictor predictor = new PrimaryDrainPredictor(100);
    predictor.newPhase(1_000);
    assertFalse(predictor.shouldWake(1_000, 1_000));
    assertFalse(predictor.shouldWake(1_899, 1_000));
    assertTrue(predictor.shouldWake(1_900, 1_000));
    assertFalse(predictor.shouldWake(2_500, 1_000), "once per phase");
    predictor.newPhase(2_500);
    assertTrue(predictor.shouldWake(3_400, 1_000));
  }
}
