package org.locus.energy.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.locus.energy.disk.DiskPowerProfile;

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
  void writeOffloadingStagesOnlyForASleepingBackupWithinTheBoundAndMovesOnceItIsAwake() {
    WriteOffloadPolicy policy = new WriteOffloadPolicy(true, 4 * 1024);
    assertTrue(policy.stage(true, 0, 1024));
    assertTrue(policy.stage(true, 3 * 1024, 1024), "the last block that fits");
    assertFalse(policy.stage(true, 3 * 1024 + 1, 1024), "past the bound: to the backup");
    assertFalse(policy.stage(false, 0, 1024), "an awake backup takes its write");
    assertFalse(new WriteOffloadPolicy(false, 4 * 1024).stage(true, 0, 1024), "off");
    assertTrue(policy.move(false));
    assertFalse(policy.move(true), "a move never wakes a backup");
    assertEquals("maxStagedBytes must be positive, got 0",
        assertThrows(IllegalArgumentException.class, () -> new WriteOffloadPolicy(true, 0))
            .getMessage());
  }

  @Test
  void historyPolicyPicksTheTimeoutThatWouldHaveCostLeastOverRecentGaps() {
    IdleGapHistoryPolicy policy =
        new IdleGapHistoryPolicy(60_000, 500, DiskPowerProfile.BARRACUDA_7200_14);
    assertEquals(500, policy.standbyAfterMillis(), "no history: backups are rarely read");
    for (int i = 0; i < 20; i++) {
      policy.observeIdleGap(2_000);
    }
    assertEquals(60_000, policy.standbyAfterMillis(), "short gaps: never worth a spin-up");
    for (int i = 0; i < IdleGapHistoryPolicy.HISTORY; i++) {
      policy.observeIdleGap(120_000);
    }
    assertEquals(500, policy.standbyAfterMillis(), "long gaps: spin down at once");
    assertEquals(60_000, policy.standbyAfterMillisForDrive());
  }

  @Test
  void historyPolicyWaitsOutABurstThenSleepsThroughThePauseAfterIt() {
    // batch work: 29 gaps of 10 s inside a window, then 25 min idle, twice
    IdleGapHistoryPolicy policy =
        new IdleGapHistoryPolicy(60_000, 500, DiskPowerProfile.BARRACUDA_7200_14);
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 29; i++) {
        policy.observeIdleGap(10_000);
      }
      policy.observeIdleGap(1_500_000);
    }
    // 10 s itself would spin down at every in-window gap; 20 s keeps the window up and
    // sleeps 40 s earlier than the fixed 60 s in every pause
    assertEquals(20_000, policy.standbyAfterMillis());
  }

  @Test
  void historyPolicyIgnoresGapsWithinABurst() {
    IdleGapHistoryPolicy policy =
        new IdleGapHistoryPolicy(60_000, 500, DiskPowerProfile.BARRACUDA_7200_14);
    for (int i = 0; i < 100; i++) {
      policy.observeIdleGap(250);
    }
    assertEquals(0, policy.recentGapsMillis().length);
    assertEquals(500, policy.standbyAfterMillis());
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

  @Test
  void leadTimeFiresWhenTheRestDrainsWithinTheSpinUpAtTheRecentRate() {
    // 10 000 bytes of primary data served at 100 bytes/ms; lead 10 ms, so the rate window is 20 ms
    PrimaryDrainPredictor predictor = new PrimaryDrainPredictor(100, 10);
    predictor.newPhase(0);
    assertFalse(predictor.shouldWake(0, 100, 10_000));
    assertFalse(predictor.shouldWake(10, 9_000, 10_000), "a burst before a full rate window");
    predictor.newPhase(0);
    for (long t = 0; t <= 88; t++) {
      assertFalse(predictor.shouldWake(t, 100 * t, 10_000), "at " + t + " ms");
    }
    // served 8 900 at 89 ms: 1 100 left, 11 ms at 100 bytes/ms, more than the lead
    assertFalse(predictor.shouldWake(89, 8_900, 10_000));
    // 1 000 left at 100 bytes/ms drains in 10 ms: within the lead, a block before the seed's rule
    assertTrue(predictor.shouldWake(90, 9_000, 10_000));
    assertFalse(predictor.shouldWake(91, 9_900, 10_000), "once per phase");
  }

  @Test
  void leadTimeDoesNotFireWhileTheDrainIsSlowOrStalled() {
    PrimaryDrainPredictor predictor = new PrimaryDrainPredictor(100, 10);
    predictor.newPhase(0);
    for (long t = 0; t <= 200; t += 5) {
      // 5 000 served quickly, then nothing: the remaining half never drains at rate 0
      assertFalse(predictor.shouldWake(t, Math.min(5_000, 500 * t), 10_000), "at " + t);
    }
  }

  @Test
  void predictorRefusesANonPositiveBlockSizeOrNegativeLead() {
    assertThrows(IllegalArgumentException.class, () -> new PrimaryDrainPredictor(0, 10));
    assertThrows(IllegalArgumentException.class, () -> new PrimaryDrainPredictor(100, -1));
  }
}
