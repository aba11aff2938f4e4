package org.locus.bench.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The kills of a chaos run: repeatable from their seed, one daemon down at a time. */
class ChaosScheduleTest {
  private static final List<String> ROLES = List.of("datanode", "nodemanager");

  @Test
  void theSameSeedGivesTheSameKillsAndAnotherSeedOthers() {
    ChaosSchedule a = ChaosSchedule.plan(7, 3_600_000, 300_000, 30_000, 120_000, 4, ROLES);
    assertEquals(a, ChaosSchedule.plan(7, 3_600_000, 300_000, 30_000, 120_000, 4, ROLES));
    assertNotEquals(a.faults(),
        ChaosSchedule.plan(8, 3_600_000, 300_000, 30_000, 120_000, 4, ROLES).faults());
  }

  @Test
  void anHourWithAKillEveryFiveMinutesKillsElevenTimesEachRestartedBeforeTheNext() {
    ChaosSchedule s = ChaosSchedule.plan(1, 3_600_000, 300_000, 30_000, 120_000, 4, ROLES);
    assertEquals(11, s.faults().size(), "at 5, 10, ... 55 min: the 60th leaves no time to"
        + " restart within the hour");
    long previousRestart = 0;
    for (ChaosSchedule.Fault f : s.faults()) {
      assertEquals(0, f.atMillis() % 300_000);
      assertTrue(f.atMillis() > previousRestart, "one daemon down at a time: " + f);
      assertTrue(f.downMillis() >= 30_000 && f.downMillis() <= 120_000, f.toString());
      assertTrue(f.restartMillis() <= 3_600_000, f.toString());
      assertTrue(f.node().matches("node[1-4]"), f.node());
      assertTrue(ROLES.contains(f.role()), f.role());
      previousRestart = f.restartMillis();
    }
    assertTrue(s.faults().stream().map(ChaosSchedule.Fault::role).distinct().count() == 2,
        "both roles are drawn in eleven kills");
  }

  @Test
  void aDownTimeAsLongAsTheKillIntervalIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ChaosSchedule.plan(1, 600_000, 60_000, 10_000, 60_000, 3, ROLES));
    assertTrue(e.getMessage().contains("one daemon down at a time"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> ChaosSchedule.plan(1, 600_000, 60_000, 30_000, 10_000, 3, ROLES));
    assertThrows(IllegalArgumentException.class,
        () -> ChaosSchedule.plan(1, 600_000, 60_000, 10_000, 20_000, 3, List.of()));
  }
}
