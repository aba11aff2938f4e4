package org.apache.hadoop.mapreduce.v2.app.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.Collection;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.job.impl.JobImpl;
import org.apache.hadoop.mapreduce.v2.util.MRBuilderUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.Test;
import org.locus.mapreduce.am.LocalityTier;
import org.locus.mapreduce.am.TierHosts;

/**
 * The locality tiers of the Locus AM, as BoostDFS's superlocal (rank -1) and energy-efficient
 * HDFS's backup-local (rank 1) use them: the reordering of a host's pending maps before the stock
 * assignment takes the first, which tier a map is at on a host, and the stock fields the
 * reordering and the tier counters use.
 */
class MapLevelOrderTest {
  private static final IntFunction<Collection<String>> NONE = i -> List.of();

  private static final LocalityTier SUPERLOCAL = new LocalityTier("superlocal", -1);
  private static final LocalityTier BACKUP_LOCAL = new LocalityTier("backup-local", 1);

  private static final JobId JOB = MRBuilderUtils.newJobId(ApplicationId.newInstance(1, 1), 1);

  private static TaskAttemptId map(int index) {
    return MRBuilderUtils.newTaskAttemptId(MRBuilderUtils.newTaskId(JOB, index, TaskType.MAP), 0);
  }

  private static List<Integer> indexes(List<TaskAttemptId> attempts) {
    return attempts.stream().map(a -> a.getTaskId().getId()).toList();
  }

  /** Each map's tiers: its superlocal hosts, then its backup hosts, as a placement lists them. */
  private static IntFunction<List<TierHosts>> tiers(IntFunction<Collection<String>> superlocal,
      IntFunction<Collection<String>> backup) {
    return i -> List.of(new TierHosts(SUPERLOCAL, superlocal.apply(i)),
        new TierHosts(BACKUP_LOCAL, backup.apply(i)));
  }

  private static void byLevel(LinkedList<TaskAttemptId> attempts, String host,
      IntFunction<Collection<String>> superlocal, IntFunction<Collection<String>> backup) {
    LocusRMContainerAllocator.byTier(attempts, host, tiers(superlocal, backup));
  }

  @Test
  void mapsSuperlocalOnTheHostMoveToTheFrontEachGroupInItsOrder() {
    LinkedList<TaskAttemptId> waiting = new LinkedList<>(
        List.of(map(0), map(1), map(2), map(3), map(4)));
    IntFunction<Collection<String>> superlocal = i -> switch (i) {
      case 1, 4 -> Set.of("h2");
      case 3 -> Set.of("h1", "h2");
      default -> Set.of("h3");
    };

    byLevel(waiting, "h2", superlocal, NONE);

    assertEquals(List.of(1, 3, 4, 0, 2), indexes(waiting));
  }

  @Test
  void mapsBackupLocalOnTheHostGoLastSoTheHostWorksThroughItsPrimariesFirst() {
    LinkedList<TaskAttemptId> waiting = new LinkedList<>(
        List.of(map(0), map(1), map(2), map(3), map(4)));
    // h1 holds maps 0 and 3 only on a backup; map 2 it holds as primary, maps 1 and 4 not at all
    IntFunction<Collection<String>> backup = i -> i == 0 || i == 3 ? Set.of("h1") : Set.of();

    byLevel(waiting, "h1", NONE, backup);

    assertEquals(List.of(1, 2, 4, 0, 3), indexes(waiting));
  }

  @Test
  void theThreeLevelsSuperlocalNodeLocalBackupLocal() {
    LinkedList<TaskAttemptId> waiting = new LinkedList<>(
        List.of(map(0), map(1), map(2), map(3)));
    IntFunction<Collection<String>> superlocal = i -> i == 3 ? Set.of("h1") : Set.of();
    // map 3 is both: superlocal wins
    IntFunction<Collection<String>> backup = i -> i == 0 || i == 3 ? Set.of("h1") : Set.of();

    byLevel(waiting, "h1", superlocal, backup);

    assertEquals(List.of(3, 1, 2, 0), indexes(waiting));
  }

  @Test
  void withoutSuperlocalOrBackupHostsTheStockOrderStays() {
    LinkedList<TaskAttemptId> waiting = new LinkedList<>(List.of(map(2), map(0), map(1)));

    byLevel(waiting, "h1", NONE, NONE);

    assertEquals(List.of(2, 0, 1), indexes(waiting));
  }

  @Test
  void tiersOfAnyNameOrderByRankAroundNodeLocal() {
    LinkedList<TaskAttemptId> waiting = new LinkedList<>(
        List.of(map(0), map(1), map(2), map(3), map(4)));
    LocalityTier first = new LocalityTier("first", -5);
    LocalityTier second = new LocalityTier("second", -2);
    LocalityTier last = new LocalityTier("last", 3);
    IntFunction<List<TierHosts>> tiers = i -> switch (i) {
      case 0 -> List.of(new TierHosts(last, Set.of("h1")));
      case 2 -> List.of(new TierHosts(second, Set.of("h1")));
      case 4 -> List.of(new TierHosts(first, Set.of("h1")));
      default -> List.of(new TierHosts(first, Set.of("h2")));
    };

    LocusRMContainerAllocator.byTier(waiting, "h1", tiers);

    assertEquals(List.of(4, 2, 1, 3, 0), indexes(waiting));
  }

  @Test
  void aMapIsAtItsLowestRankedTierNamingTheHostTheFirstListedAmongEquals() {
    LocalityTier early = new LocalityTier("early", -1);
    LocalityTier alsoEarly = new LocalityTier("also-early", -1);
    List<TierHosts> tiers = List.of(new TierHosts(BACKUP_LOCAL, Set.of("h1", "h2")),
        new TierHosts(alsoEarly, Set.of("h2")), new TierHosts(early, Set.of("h2")),
        new TierHosts(SUPERLOCAL, Set.of("h3")));

    assertEquals(BACKUP_LOCAL, LocusRMContainerAllocator.tierOn(tiers, "h1"));
    assertEquals(alsoEarly, LocusRMContainerAllocator.tierOn(tiers, "h2"));
    assertEquals(SUPERLOCAL, LocusRMContainerAllocator.tierOn(tiers, "h3"));
    assertNull(LocusRMContainerAllocator.tierOn(tiers, "h4"));
    assertNull(LocusRMContainerAllocator.tierOn(List.of(), "h1"));
  }

  @Test
  void theStockJobHasTheCountersTheTiersAreCountedIn() throws Exception {
    Field field = JobImpl.class.getDeclaredField(LocusRMContainerAllocator.JOB_COUNTERS_FIELD);
    assertEquals(Counters.class, field.getType(), field.toString());
  }

  @Test
  void theStockAllocatorHasTheHostListsTheLevelReorders() throws Exception {
    Field field = RMContainerAllocator.ScheduledRequests.class.getDeclaredField(
        LocusRMContainerAllocator.MAPS_BY_HOST_FIELD);
    assertTrue(Map.class.isAssignableFrom(field.getType()), field.toString());
  }
}
