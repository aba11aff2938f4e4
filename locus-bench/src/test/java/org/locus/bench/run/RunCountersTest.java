package org.locus.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.junit.jupiter.api.Test;
import org.locus.boost.scheduling.SuperlocalTaskPlacement;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.JobTimeline;
import org.locus.jobs.catalog.JobResult;
import org.locus.mapreduce.am.LocalityTier;

/** What a run's record carries from its MapReduce jobs' counters. */
class RunCountersTest {
  private static JobOutcome outcome(Counters counters) {
    return new JobOutcome("job", true, 1, 4, 4, 0, 0, 0, counters, JobTimeline.UNKNOWN, "");
  }

  @Test
  void theSuperlocalTierCounterIsRecordedAsSuperlocalMapsSummedOverTheJobs() {
    Counters first = new Counters();
    SuperlocalTaskPlacement.SUPERLOCAL.counterIn(first).increment(3);
    first.findCounter(JobCounter.DATA_LOCAL_MAPS).increment(4);
    Counters second = new Counters();
    SuperlocalTaskPlacement.SUPERLOCAL.counterIn(second).increment(2);

    Map<String, Long> counters = BenchRunner.counters(JobResult.of(outcome(first),
        outcome(second)));

    assertEquals(5, counters.get("SUPERLOCAL_MAPS").longValue());
    assertEquals(4, counters.get("DATA_LOCAL_MAPS").longValue());
    assertEquals(RunRecord.COUNTERS, counters.keySet().stream().toList());
  }

  @Test
  void onlyTheSuperlocalCounterOfTheTierGroupCountsAsSuperlocalMaps() {
    Counters counters = new Counters();
    new LocalityTier("backup-local", 1).counterIn(counters).increment(7);
    counters.findCounter("some.other.Group", "superlocal").increment(1);

    Map<String, Long> recorded = BenchRunner.counters(JobResult.of(outcome(counters)));

    assertEquals(0, recorded.get("SUPERLOCAL_MAPS").longValue());
  }
}
