package org.locus.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.bench.replay.ReplayFile;
import org.locus.bench.replay.ReplayedJob;
import org.locus.bench.replay.SwimReplayBench;
import org.locus.bench.replay.SwimTraces;
import org.locus.bench.run.BenchCluster;
import org.locus.bench.run.LocalRunnerCluster;
import org.locus.jobs.swim.SwimScaling;

/**
 * A trace replay on MapReduce's local runner: a four-row trace whose first two jobs share a
 * submit time and whose last row lies past the replayed hours. Checks what the replay
 * guarantees: only the first hours are replayed, no job is submitted before its compressed
 * trace time, submissions keep the trace order, jobs with one submit time run at the same time
 * (neither waits for the other), every job shuffles its byte target within 10 %, and
 * replay.json holds all of it. Also the bundled samples and a bad trace file.
 */
class TraceReplayTest {
  private static final long MIN = 64 * 1024;
  @TempDir
  static File tmp;
  private static ReplayFile result;
  private static String progress;

  @BeforeAll
  static void replayAFourRowTrace() throws Exception {
    File trace = new File(tmp, "four-rows.tsv");
    Files.writeString(trace.toPath(), String.join("\n",
        "jobA\t10\t10\t600000\t300000\t100000",
        "jobB\t10\t0\t200000\t0\t50000",
        "jobC\t40\t30\t100000\t100000\t100000",
        "jobD\t7300\t7260\t100000\t100000\t100000") + "\n");
    SwimTraces traces = SwimTraces.load(trace.getPath(), 8);
    // bytes / 2, clipped to [64 KiB, 256 KiB]; 20 times faster: A and B at 0.5 s, C at 2 s
    SwimScaling scaling = new SwimScaling(2, MIN, 256 * 1024);
    ByteArrayOutputStream lines = new ByteArrayOutputStream();
    SwimReplayBench bench = new SwimReplayBench(traces, 2, scaling, 20, 1,
        new PrintStream(lines, true, StandardCharsets.UTF_8));
    try (BenchCluster cluster = LocalRunnerCluster.factory(new File(tmp, "cluster"))
        .start("replay", new Configuration(false))) {
      result = bench.run(cluster, new File(tmp, "out"));
    }
    progress = lines.toString(StandardCharsets.UTF_8);
  }

  private static ReplayedJob job(String name) {
    return result.jobs().stream().filter(j -> j.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void onlyTheFirstHoursAreReplayedAndEveryJobSucceeds() {
    assertEquals(List.of("jobA", "jobB", "jobC"),
        result.jobs().stream().map(ReplayedJob::name).toList(), progress);
    assertTrue(result.jobs().stream().allMatch(ReplayedJob::succeeded), progress);
  }

  @Test
  void noJobIsSubmittedBeforeItsCompressedTraceTimeAndTheOrderIsKept() {
    assertEquals(500, job("jobA").plannedMillis());
    assertEquals(500, job("jobB").plannedMillis());
    assertEquals(2000, job("jobC").plannedMillis());
    long previous = 0;
    for (ReplayedJob job : result.jobs()) {
      assertTrue(job.submittedMillis() >= job.plannedMillis(), job.toString());
      assertTrue(job.submittedMillis() >= previous, "trace order: " + result.jobs());
      previous = job.submittedMillis();
    }
  }

  @Test
  void jobsWithOneSubmitTimeRunAtTheSameTime() {
    ReplayedJob a = job("jobA");
    ReplayedJob b = job("jobB");
    assertTrue(b.submittedMillis() < a.finishedMillis() && a.submittedMillis()
        < b.finishedMillis(), "A and B overlap: " + a + " " + b);
  }

  @Test
  void everyJobShufflesItsScaledTarget() {
    assertEquals(256 * 1024, job("jobA").targets().inputBytes(), "600000 / 2 cut to 256 KiB");
    assertTrue(job("jobA").targets().clipped());
    assertEquals(0, job("jobB").targets().shuffleBytes(), "zero shuffle stays map-only");
    assertEquals(MIN, job("jobC").targets().inputBytes(), "100000 / 2 raised to 64 KiB");
    for (ReplayedJob job : result.jobs()) {
      // Input and output bytes are counted from FileSystem statistics, which overlapping
      // local-runner jobs share: only a cluster measures them per job (BenchmarkCommandsTest).
      // Map output bytes are the tasks' own count.
      assertTrue(Math.abs(job.shuffleBytes() - job.targets().shuffleBytes())
          <= job.targets().shuffleBytes() / 10, job.toString());
    }
  }

  @Test
  void replayJsonHoldsEveryJobWithPlanTimesTargetsAndMeasurements() throws IOException {
    JsonNode root = new ObjectMapper().readTree(new File(tmp, "out/replay.json"));
    assertEquals(ReplayFile.SCHEMA, root.get("schema").asText());
    assertEquals("four-rows.tsv", root.get("trace").asText());
    assertEquals(20.0, root.get("compression").asDouble());
    assertEquals(2.0, root.get("scaling").get("divisor").asDouble());
    assertEquals(3, root.get("jobs").size());
    for (JsonNode job : root.get("jobs")) {
      ReplayedJob replayed = job(job.get("name").asText());
      assertEquals(replayed.submittedMillis(), job.get("submittedMillis").asLong());
      assertEquals(replayed.targets().inputBytes(), job.get("target").get("input").asLong());
      assertEquals(replayed.shuffleBytes(), job.get("measured").get("shuffle").asLong());
    }
    assertTrue(result.makespanMillis() >= job("jobC").finishedMillis()
        - job("jobA").submittedMillis(), result.summary());
    assertTrue(progress.contains("[3/3 submitted] jobC"), progress);
  }

  @Test
  void bundledSamplesAreTheFirstHourOfEachTrace() throws IOException {
    SwimTraces fb2009 = SwimTraces.load("fb2009", 1);
    assertEquals(78, fb2009.jobs().size());
    assertEquals(SwimScaling.FB2009_NODES, fb2009.originalNodes());
    assertTrue(fb2009.jobs().stream().allMatch(j -> j.submitSeconds() < 3600));
    assertEquals(977, SwimTraces.load("fb2010", 1).jobs().size());
  }

  @Test
  void aMissingOrMalformedTraceIsNamed() throws IOException {
    IOException missing = assertThrows(IOException.class,
        () -> SwimTraces.load(new File(tmp, "nope.tsv").getPath(), 1));
    assertTrue(missing.getMessage().contains("nope.tsv is neither a file nor one of the"
        + " bundled samples (fb2009, fb2010)"), missing.getMessage());
    File bad = new File(tmp, "bad.tsv");
    Files.writeString(bad.toPath(), "job0\t1\t1\t10\t10\t10\njob1\tsoon\t1\t10\t10\t10\n");
    IOException malformed = assertThrows(IOException.class,
        () -> SwimTraces.load(bad.getPath(), 1));
    assertTrue(malformed.getMessage().contains("bad.tsv:2: not a SWIM trace row"),
        malformed.getMessage());
  }
}
