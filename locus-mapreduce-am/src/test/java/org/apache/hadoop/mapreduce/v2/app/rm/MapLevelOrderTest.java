package org.apache.hadoop.mapreduce.v2.app.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.Collection;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.util.MRBuilderUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.Test;

/**
 * The superlocal and backup-local levels of the Locus AM: the reordering of a host's pending
 * maps before the stock assignment takes the first, and the stock field it reorders.
 */
class MapLevelOrderTest {
  private static final IntFunction<Collection<String>> NONE = i -> List.of();

  private static final JobId JOB = MRBuilderUtils.newJobId(ApplicationId.newInstance(1, 1), 1);

  private static TaskAttemptId map(int index) {
    return MRBuilderUtils.newTaskAttemptId(MRBuilderUtils.newTaskId(JOB, index, TaskType.MAP), 0);
  }

  private static List<Integer> indexes(List<TaskAttemptId> attempts) {
    return attempts.stream().map(a -> a.getTaskId().getId()).toList();
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

    LocusRMContainerAllocator.byLevel(waiting, "h2", superlocal, NONE);

    assertEquals(List.of(1, 3, 4, 0, 2), indexes(waiting));
  }

  @Test
  void mapsBackupLocalOnTheHostGoLastSoTheHostWorksThroughItsPrimariesFirst() {
    LinkedList<TaskAttemptId> waiting = new LinkedList<>(
        List.of(map(0), map(1), map(2), map(3), map(4)));
    // h1 holds maps 0 and 3 only on a backup; map 2 it holds as primary, maps 1 and 4 not at all
    IntFunction<Collection<String>> backup = i -> i == 0 || i == 3 ? Set.of("h1") : Set.of();

    LocusRMContainerAllocator.byLevel(waiting, "h1", NONE, backup);

    assertEquals(List.of(1, 2, 4, 0, 3), indexes(waiting));
  }

  @Test
  void theThreeLevelsSuperlocalNodeLocalBackupLocal() {
    LinkedList<TaskAttemptId> waiting = new LinkedList<>(
        List.of(map(0), map(1), map(2), map(3)));
    IntFunction<Collection<String>> superlocal = i -> i == 3 ? Set.of("h1") : Set.of();
    // map 3 is both: superlocal wins
    IntFunction<Collection<String>> backup = i -> i == 0 || i == 3 ? Set.of("h1") : Set.of();

    LocusRMContainerAllocator.byLevel(waiting, "h1", superlocal, backup);

    assertEquals(List.of(3, 1, 2, 0), indexes(waiting));
  }

  @Test
  void withoutSuperlocalOrBackupHostsTheStockOrderStays() {
    LinkedList<TaskAttemptId> waiting = new LinkedList<>(List.of(map(2), map(0), map(1)));

    LocusRMContainerAllocator.byLevel(waiting, "h1", NONE, NONE);

    assertEquals(List.of(2, 0, 1), indexes(waiting));
  }

  @Test
  void theStockAllocatorHasTheHostListsTheLevelReorders() throws Exception {
    Field field = RMContainerAllocator.ScheduledRequests.class.getDeclaredField(
        LocusRMContainerAllocator.MAPS_BY_HOST_FIELD);
    assertTrue(Map.class.isAssignableFrom(field.getType()), field.toString());
  }
}
