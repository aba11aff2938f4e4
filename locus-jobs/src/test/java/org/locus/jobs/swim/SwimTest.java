package org.locus.jobs.swim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.jobs.LocalJobFixture;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.data.DataGenerators;

/**
 * SWIM: the trace parser on the first rows of the Facebook 2009 trace, the scaling rule, the
 * crafted suites of seed 002, and the synthetic job hitting its byte targets within 10 % as
 * Hadoop's own counters measure them (three trace rows: a shuffling job, a job clipped to the
 * minimum, a map-only job clipped to the maximum).
 */
class SwimTest {
  private static final long MIN = 64 * 1024;
  private static final long MAX = 4L << 20;
  private static final SwimScaling SCALING = new SwimScaling(1, MIN, MAX);
  @TempDir
  static File tmp;
  private static LocalJobFixture jobs;
  private static File pool;
  private static List<SwimTraceJob> trace;

  @BeforeAll
  static void readTraceAndWritePool() throws Exception {
    trace = SwimTrace.read(Path.of(SwimTest.class.getResource("/swim/fb2009-first-5.tsv")
        .toURI()));
    jobs = new LocalJobFixture(tmp);
    // LocalJobRunner's concurrent reducers share one FileSystem statistics object, so each
    // would count the other's writes in BYTES_WRITTEN: run them one after the other.
    jobs.conf().setInt("mapreduce.local.reduce.tasks.maximum", 1);
    pool = new File(tmp, "pool");
    new DataGenerators().get("text").write(FileSystem.getLocal(jobs.conf()),
        new org.apache.hadoop.fs.Path(pool.toURI()), 1 << 20, 2, 1);
  }

  @Test
  void parserReadsEveryColumnOfATraceRow() {
    assertEquals(5, trace.size());
    assertEquals(new SwimTraceJob("job0", 49, 49, 740773, 2339561, 627471), trace.get(0));
    assertEquals(new SwimTraceJob("job4", 208, 11, 3623279, 0, 9838062), trace.get(4));
  }

  @Test
  void aNegativeGapIsABadRow() {
    // the other counts were checked, the gap was not (locus-fuzz)
    IOException e = assertThrows(IOException.class, () -> SwimTrace.parse(new BufferedReader(
        new StringReader("job0\t1\t-1\t5\t5\t5\n")), "t.tsv"));
    assertTrue(e.getMessage().startsWith("t.tsv:1: not a SWIM trace row"), e.getMessage());
  }

  @Test
  void parserNamesTheLineOfABadRow() {
    IOException e = assertThrows(IOException.class, () -> SwimTrace.parse(new BufferedReader(
        new StringReader("job0\t1\t1\t5\t5\t5\n\njob1\t2\t1\tfive\t5\t5\n")), "t.tsv"));
    assertTrue(e.getMessage().startsWith("t.tsv:3: not a SWIM trace row"), e.getMessage());
  }

  @Test
  void firstHoursKeepsOnlyJobsSubmittedBeforeTheEnd() {
    assertEquals(2, SwimTrace.firstHours(trace, 110 / 3600.0).size());
  }

  @Test
  void scalingDividesThenClipsNonZeroCountsAndSaysSo() {
    SwimScaling scaling = new SwimScaling(10, 1000, 100_000);
    assertEquals(new ByteTargets(74077, 100_000, 62747, true), scaling.scale(trace.get(0)));
    assertEquals(new ByteTargets(23342, 1000, 1000, true), scaling.scale(trace.get(3)));
    assertEquals(new ByteTargets(100_000, 0, 100_000, true), scaling.scale(trace.get(4)));
    assertEquals(new ByteTargets(26763, 59431, 23355, false), scaling.scale(trace.get(2)));
  }

  @Test
  void zoneSuiteIsTwentySevenGroupsOfTwentyInMapShuffleReduceOrder() {
    List<SuiteJob> suite = SwimSuites.zoneGroups(1 << 20, MIN);
    assertEquals(27 * 20, suite.size());
    assertEquals(27, suite.stream().map(SuiteJob::group).distinct().count());
    assertEquals("map-heavy-1", suite.get(0).group());
    assertEquals("shuffle-heavy-2", suite.get(20).group());
    assertEquals("reduce-heavy-27", suite.get(27 * 20 - 1).group());
    assertEquals(new ByteTargets(MIN, 1 << 20, MIN, false), suite.get(20).targets());
    assertEquals(539.0, suite.get(539).submitSeconds());
  }

  private static void assertWithinTenPercent(long target, long measured, String what) {
    assertTrue(Math.abs(measured - target) <= target / 10,
        what + ": target " + target + ", measured " + measured);
  }

  private static void assertHitsTargets(SwimTraceJob row) throws Exception {
    ByteTargets targets = SCALING.scale(row);
    JobResult result = jobs.runResult("swim-synthetic", pool, new File(tmp, row.name()), 2,
        "input-bytes", String.valueOf(targets.inputBytes()),
        "shuffle-bytes", String.valueOf(targets.shuffleBytes()),
        "output-bytes", String.valueOf(targets.outputBytes()),
        "split-bytes", String.valueOf(512 * 1024));
    assertTrue(result.passed(), result.toString());
    Counters counters = result.jobs().get(0).counters();
    assertWithinTenPercent(targets.inputBytes(),
        counters.findCounter(FileInputFormatCounter.BYTES_READ).getValue(), "input");
    assertEquals(targets.shuffleBytes() == 0 ? 0 : targets.shuffleBytes(),
        counters.findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue(),
        targets.shuffleBytes() / 10.0, "shuffle");
    assertWithinTenPercent(targets.outputBytes(),
        counters.findCounter(FileOutputFormatCounter.BYTES_WRITTEN).getValue(), "output");
  }

  @Test
  void syntheticJobHitsTheTargetsOfAShufflingRow() throws Exception {
    assertHitsTargets(trace.get(0));
  }

  @Test
  void syntheticJobHitsTheMinimumOfARowWithATinyShuffle() throws Exception {
    assertFalse(SCALING.scale(trace.get(3)).shuffleBytes() < MIN);
    assertHitsTargets(trace.get(3));
  }

  @Test
  void syntheticJobRunsMapOnlyForARowWithoutShuffle() throws Exception {
    assertTrue(SCALING.scale(trace.get(4)).clipped());
    assertHitsTargets(trace.get(4));
  }

  @Test
  void syntheticJobWithoutInputBytesIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> jobs.runResult("swim-synthetic", pool, new File(tmp, "x"), 1, "output-bytes", "5"));
    assertEquals("--input-bytes BYTES is required", e.getMessage());
  }
}
