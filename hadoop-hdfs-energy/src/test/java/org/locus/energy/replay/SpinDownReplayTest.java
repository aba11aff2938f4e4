package org.locus.energy.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.policy.FixedTimeoutPolicy;
import org.locus.energy.policy.IdleGapHistoryPolicy;

/** Trace replay through the power manager's state machine, checked against hand arithmetic. */
class SpinDownReplayTest {
  private static final DiskPowerProfile DRIVE = DiskPowerProfile.BARRACUDA_7200_14;
  private static final SpinDownReplay REPLAY = new SpinDownReplay(DRIVE, 250, 10_000);

  @Test
  void oneLongGapUnderAFixedTimeoutCostsTimeoutIdleThenStandbyThenOneSpinUp() {
    // accesses at 0.1 s and 600 s; the trace ends at 700 s
    AccessTrace trace = new AccessTrace("two", new long[] {100, 600_000}, 700_000);
    SpinDownReplay.Outcome o = REPLAY.replay(trace, new FixedTimeoutPolicy(60_000));

    assertEquals(1, o.spinUps());
    assertEquals(1, o.demandSpinUps(), "the second access met a sleeping disk");
    assertEquals(10_000, o.stallMillis(), "and waited one whole spin-up");
    // up 60 s, standby 540 s, 10 s spinning up, up 50 s more (60 s after the access), then
    // standby for the last 40 s
    double expected = DRIVE.idleWatts() * 110 + DRIVE.standbyWatts() * 580
        + DRIVE.spinUpWatts() * 10;
    assertEquals(expected, o.joules(), expected * 0.01, "joules " + o.joules());
    assertEquals(DRIVE.idleWatts() * 700, o.alwaysOnJoules(), DRIVE.idleWatts() * 700 * 0.01);
  }

  @Test
  void theOfflineOptimumIsAFloorForEveryPolicyOnEveryTrace() {
    long hour = 3_600_000L;
    for (AccessTrace trace : List.of(AccessTrace.steady(hour, 20_000, 40_000, 3),
        AccessTrace.batchWindows(hour, 30 * 60_000L, 5 * 60_000L, 10_000),
        AccessTrace.heavyTailed(hour, 10_000, 0.9, 3))) {
      double floor = REPLAY.offlineOptimumJoules(trace);
      for (long timeout : new long[] {10_000, 60_000, 300_000}) {
        double joules = REPLAY.replay(trace, new FixedTimeoutPolicy(timeout)).joules();
        assertTrue(joules >= floor, trace + " fixed " + timeout + ": " + joules + " < " + floor);
      }
      double history = REPLAY.replay(trace, new IdleGapHistoryPolicy(300_000, 500, DRIVE))
          .joules();
      assertTrue(history >= floor, trace + " history: " + history + " < " + floor);
    }
  }

  @Test
  void shortGapsAreNeverWorthASpinDownForTheHistoryPolicy() {
    AccessTrace steady = AccessTrace.steady(3_600_000L, 20_000, 40_000, 9);
    SpinDownReplay.Outcome o =
        REPLAY.replay(steady, new IdleGapHistoryPolicy(300_000, 500, DRIVE));
    assertTrue(o.demandSpinUps() <= 1, "only the first gap, before any history: "
        + o.demandSpinUps());
  }

  @Test
  void aTraceRefusesUnsortedOrOutOfRangeAccesses() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new AccessTrace("bad", new long[] {5, 3}, 10));
    assertTrue(e.getMessage().contains("access 1 at 3 ms"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new AccessTrace("late", new long[] {10}, 10));
    assertThrows(IllegalArgumentException.class, () -> new AccessTrace("empty", new long[0], 0));
  }
}
