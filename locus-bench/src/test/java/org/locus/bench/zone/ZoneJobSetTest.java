package org.locus.bench.zone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.locus.bench.zone.ZoneJobSet.PlannedJob;

class ZoneJobSetTest {
  private static final long DISK = 512L << 20;

  @Test
  void groupsCycleMapShuffleReduceInTheSeedsOrder() {
    List<PlannedJob> jobs = ZoneJobSet.plan(DISK, 9);
    assertEquals(9, jobs.size());
    for (PlannedJob job : jobs) {
      assertEquals(ZoneJobKind.values()[job.group() % 3], job.kind());
      assertEquals(job.kind().word() + "-" + job.group(), job.name());
    }
  }

  @Test
  void reduceHeavyOutputsAddUpToTheirShareAndDominateTheOthers() {
    List<PlannedJob> jobs = ZoneJobSet.plan(DISK, 9);
    long reduceOutput = jobs.stream().filter(j -> j.kind() == ZoneJobKind.REDUCE_HEAVY)
        .mapToLong(j -> j.targets().outputBytes()).sum();
    assertEquals(ZoneJobSet.REDUCE_OUTPUT_SHARE * DISK, reduceOutput, 3.0);
    for (PlannedJob job : jobs) {
      if (job.kind() != ZoneJobKind.REDUCE_HEAVY) {
        assertTrue(job.targets().outputBytes() * 50 < reduceOutput / 3, job.name());
      }
    }
  }

  @Test
  void aGivenOutputShareIsWhatTheReduceHeavyOutputsFillAndTheRestStaysTheSame() {
    List<PlannedJob> fuller = ZoneJobSet.plan(DISK, 9, 0.6);
    List<PlannedJob> usual = ZoneJobSet.plan(DISK, 9);
    long reduceOutput = fuller.stream().filter(j -> j.kind() == ZoneJobKind.REDUCE_HEAVY)
        .mapToLong(j -> j.targets().outputBytes()).sum();
    assertEquals(0.6 * DISK, reduceOutput, 3.0);
    for (int i = 0; i < usual.size(); i++) {
      assertEquals(usual.get(i).targets().shuffleBytes(), fuller.get(i).targets().shuffleBytes());
      if (usual.get(i).kind() != ZoneJobKind.REDUCE_HEAVY) {
        assertEquals(usual.get(i).targets(), fuller.get(i).targets());
      }
    }
  }

  @Test
  void anOutputShareThatLeavesNoRoomForThePoolAndTheOuterAreaIsRefused() {
    for (double share : new double[] {0, -0.1, 0.61, Double.NaN}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ZoneJobSet.plan(DISK, 9, share));
      assertTrue(e.getMessage().contains("at most 0.6"), e.getMessage());
    }
    assertTrue(ZoneJobsRun.outerBytes(DISK) + ZoneJobSet.poolBytes(DISK)
        + ZoneJobSet.MAX_REDUCE_OUTPUT_SHARE * DISK <= 0.95 * DISK, "the limit leaves 5 %");
  }

  @Test
  void shuffleHeavyJobsShuffleMostAndNoJobReadsMoreThanThePool() {
    List<PlannedJob> jobs = ZoneJobSet.plan(DISK, 3);
    long pool = ZoneJobSet.poolBytes(DISK);
    long maxShuffle = jobs.stream().mapToLong(j -> j.targets().shuffleBytes()).max()
        .orElseThrow();
    assertEquals(jobs.get(1).targets().shuffleBytes(), maxShuffle);
    assertEquals(ZoneJobKind.SHUFFLE_HEAVY, jobs.get(1).kind());
    jobs.forEach(j -> assertTrue(j.targets().inputBytes() <= pool, j.name()));
  }

  @Test
  void theOuterAreaHoldsTheLargestIntermediateFootprintWithRoomToSpare() {
    long outer = ZoneJobsRun.outerBytes(DISK);
    long largest = ZoneJobSet.plan(DISK, 3).stream()
        .mapToLong(j -> j.targets().shuffleBytes()).max().orElseThrow();
    assertTrue(outer >= 2 * largest, "spill + merge of the largest map output fits");
    assertTrue(outer < DISK / 2, "the outer area is the smaller one");
  }

  @Test
  void fewerThanThreeGroupsIsRefusedWithTheReason() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ZoneJobSet.plan(DISK, 2));
    assertTrue(e.getMessage().contains("at least 3 groups"), e.getMessage());
  }
}
