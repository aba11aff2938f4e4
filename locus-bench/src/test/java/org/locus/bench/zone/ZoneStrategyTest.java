package org.locus.bench.zone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.locus.zone.yarn.ZoneConfigKeys;
import org.locus.zone.yarn.policy.JobZoneClassifier;
import org.locus.zone.yarn.policy.ZoneClass;

/** The keys each strategy gives the hook, read back through the hook's own classifier. */
class ZoneStrategyTest {

  private static Map<String, String> keys(ZoneStrategy strategy) {
    return strategy.hookKeys("/z/zonectl", "/dev/loop9", "/mnt/zd", "/var/z", 128L << 20,
        40L << 20);
  }

  private static ZoneClass classOf(ZoneStrategy strategy, String jobName) {
    Map<String, String> keys = keys(strategy);
    JobZoneClassifier classifier = JobZoneClassifier.fromEntries(
        keys.get(ZoneConfigKeys.JOB_CLASSES).split(","),
        ZoneClass.parse(keys.get(ZoneConfigKeys.DEFAULT_CLASS), "default"), "test");
    return classifier.classify(jobName);
  }

  @Test
  void normalInstallsTheHookSwitchedOff() {
    assertEquals("false", keys(ZoneStrategy.NORMAL).get(ZoneConfigKeys.ENABLED));
    assertEquals("true", keys(ZoneStrategy.EXISTING).get(ZoneConfigKeys.ENABLED));
    assertEquals("true", keys(ZoneStrategy.PROPOSED).get(ZoneConfigKeys.ENABLED));
  }

  @Test
  void theBenchsRootNodeManagerRunsZonectlItself() {
    assertEquals("direct", keys(ZoneStrategy.PROPOSED).get(ZoneConfigKeys.HELPER_MODE));
  }

  @Test
  void proposedSendsIntermediateHeavyJobsOutwardAndReduceHeavyJobsInward() {
    for (ZoneJobSet.PlannedJob job : ZoneJobSet.plan(512L << 20, 9)) {
      ZoneClass expected = job.kind() == ZoneJobKind.REDUCE_HEAVY ? ZoneClass.PERM
          : ZoneClass.TEMP;
      assertEquals(expected, classOf(ZoneStrategy.PROPOSED, job.name()), job.name());
    }
    assertEquals(ZoneClass.PERM, classOf(ZoneStrategy.PROPOSED, ZoneJobSet.POOL_JOB_NAME),
        "the input pool is permanent data, written inward");
  }

  @Test
  void existingSendsEveryJobToTheOneAreaFromTheOuterEdge() {
    for (ZoneJobSet.PlannedJob job : ZoneJobSet.plan(512L << 20, 9)) {
      assertEquals(ZoneClass.TEMP, classOf(ZoneStrategy.EXISTING, job.name()), job.name());
    }
    assertEquals(ZoneClass.TEMP, classOf(ZoneStrategy.EXISTING, ZoneJobSet.POOL_JOB_NAME));
  }

  @Test
  void everyStrategyHoldsOnlineWithTheMonitorOn() {
    for (ZoneStrategy s : ZoneStrategy.values()) {
      Map<String, String> k = keys(s);
      assertEquals("hold", k.get(ZoneConfigKeys.METHOD));
      assertEquals("/mnt/zd", k.get(ZoneConfigKeys.MOUNT_POINT));
      assertEquals(Long.toString(128L << 20), k.get(ZoneConfigKeys.OUTER_SIZE));
      assertEquals(Long.toString(40L << 20), k.get(ZoneConfigKeys.MONITOR_EXPAND_BELOW));
      assertTrue(Long.parseLong(k.get(ZoneConfigKeys.MONITOR_INTERVAL_MS)) > 0);
    }
  }

  @Test
  void strategiesParseByTheirWordOnly() {
    for (ZoneStrategy s : ZoneStrategy.values()) {
      assertEquals(s, ZoneStrategy.parse(s.word()));
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ZoneStrategy.parse("dynamic"));
    assertTrue(e.getMessage().contains("normal, existing or proposed"), e.getMessage());
  }
}
