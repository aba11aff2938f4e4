package org.locus.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.locus.bench.report.HtmlReport;
import org.locus.bench.run.BenchRunner;
import org.locus.bench.run.LocalRunnerCluster;
import org.locus.bench.run.RunRecord;
import org.locus.bench.suite.BenchJob;
import org.locus.bench.suite.BenchSuite;

/**
 * The bench runner on MapReduce's local runner: a three-job suite (terasort reads teragen's
 * output) under two feature sets, two runs each. Checks results.json's schema and that every
 * (job, feature, run) is there, that --resume redoes nothing, and that the report is drawn.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BenchRunnerTest {
  private static final BenchSuite SUITE = new BenchSuite("test-suite", List.of(
      new BenchJob("teragen", "teragen", "none", 0, Map.of("size", "20000")),
      new BenchJob("terasort", "terasort", "job:teragen", 0, Map.of()),
      new BenchJob("histogram-ratings", "histogram-ratings", "kind:ratings", 20_000,
          Map.of())));
  private static final List<String> FEATURES = List.of("none", "small-sort-buffer");
  @TempDir
  static File out;
  private static String firstProgress;

  /** {@link #FEATURES}: no keys, and a small sort buffer */
  private static Map<String, Configuration> twoFeatureSets() {
    Map<String, Configuration> features = new LinkedHashMap<>();
    features.put("none", new Configuration(false));
    Configuration small = new Configuration(false);
    small.set("mapreduce.task.io.sort.mb", "8");
    features.put("small-sort-buffer", small);
    return features;
  }

  private static String run(boolean resume) throws Exception {
    Map<String, Configuration> features = twoFeatureSets();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    new BenchRunner(SUITE, features, "local", LocalRunnerCluster.factory(
        new File(out, "clusters")), 2, 1, new PrintStream(progress, true,
        StandardCharsets.UTF_8)).run(out, resume);
    return progress.toString(StandardCharsets.UTF_8);
  }

  @BeforeAll
  static void runTheSuite() throws Exception {
    firstProgress = run(false);
  }

  @Test
  @Order(1)
  void resultsFollowTheSchema() throws Exception {
    JsonNode root = new ObjectMapper().readTree(new File(out, "results.json"));
    assertEquals("locus-bench-results/1", root.get("schema").asText());
    assertEquals("test-suite", root.get("suite").asText());
    assertEquals("local", root.get("cluster").asText());
    assertEquals(2, root.get("runs").asInt());
    assertEquals("[\"none\",\"small-sort-buffer\"]", root.get("features").toString());
    assertEquals("[\"teragen\",\"terasort\",\"histogram-ratings\"]",
        root.get("jobs").toString());
    for (JsonNode result : root.get("results")) {
      assertTrue(result.get("job").isTextual() && result.get("feature").isTextual()
          && result.get("run").isInt() && result.get("succeeded").isBoolean()
          && result.get("wallMillis").isNumber(), result.toString());
      for (String counter : RunRecord.COUNTERS) {
        assertTrue(result.get("counters").get(counter).isNumber(), counter + " in " + result);
      }
    }
  }

  @Test
  @Order(2)
  void everyJobFeatureAndRunIsPresentAndSucceeded() throws Exception {
    JsonNode root = new ObjectMapper().readTree(new File(out, "results.json"));
    Set<String> present = new HashSet<>();
    for (JsonNode result : root.get("results")) {
      assertTrue(result.get("succeeded").asBoolean(), result.toString());
      present.add(result.get("job").asText() + "|" + result.get("feature").asText() + "|"
          + result.get("run").asInt());
    }
    Set<String> expected = new HashSet<>();
    for (BenchJob job : SUITE.jobs()) {
      for (String feature : FEATURES) {
        for (int run = 1; run <= 2; run++) {
          expected.add(job.id() + "|" + feature + "|" + run);
        }
      }
    }
    assertEquals(expected, present);
  }

  @Test
  @Order(3)
  void progressCountsEveryRunOfTheTotal() {
    for (int i = 1; i <= 12; i++) {
      assertTrue(firstProgress.contains("[" + i + "/12] "), firstProgress);
    }
    assertTrue(firstProgress.contains("left)"), firstProgress);
  }

  @Test
  @Order(4)
  void resumeRedoesNoFinishedRun() throws Exception {
    String progress = run(true);
    assertTrue(progress.contains("[6/12] feature none: every run already in"), progress);
    assertTrue(progress.contains("[12/12] feature small-sort-buffer: every run already in"),
        progress);
    assertEquals(12, new ObjectMapper().readTree(new File(out, "results.json"))
        .get("results").size());
  }

  @Test
  @Order(5)
  void reportHasTheChartsItLinks() throws Exception {
    String html = Files.readString(HtmlReport.write(out).toPath());
    for (String chart : new String[] {"time.png", "ratio.png", "shuffle.png"}) {
      assertTrue(html.contains("<img src=\"" + chart + "\">"), html);
      assertTrue(new File(out, chart).length() > 1000, chart);
    }
  }

  @Test
  @Order(6)
  void warmUpRunsComeFirstAndAreNotRecorded(@TempDir File warm) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    Map<String, Configuration> features = new LinkedHashMap<>();
    features.put("none", new Configuration(false));
    new BenchRunner(SUITE, features, "local", LocalRunnerCluster.factory(
        new File(warm, "clusters")), 1, 1, 1, new PrintStream(progress, true,
        StandardCharsets.UTF_8)).run(warm, false);
    String lines = progress.toString(StandardCharsets.UTF_8);
    // terasort's warm-up reads teragen's warm-up output, as its measured run reads run 1's
    for (String job : new String[] {"teragen", "terasort", "histogram-ratings"}) {
      assertTrue(lines.contains("[warm-up 1/1] none " + job + ": ok in "), lines);
    }
    assertTrue(lines.indexOf("[warm-up 1/1] none histogram-ratings") < lines.indexOf("[1/3] "),
        lines);
    JsonNode results = new ObjectMapper().readTree(new File(warm, "results.json"))
        .get("results");
    assertEquals(3, results.size(), results.toString());
    for (JsonNode result : results) {
      assertEquals(1, result.get("run").asInt(), result.toString());
    }
  }

  @Test
  @Order(7)
  void interleavedRunsAlternateTheLayoutsAndReverseEveryOtherRun(@TempDir File both)
      throws Exception {
    BenchSuite one = new BenchSuite("one-job", List.of(SUITE.jobs().get(2)));
    Map<String, Configuration> features = twoFeatureSets();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    new BenchRunner(one, features, "local", LocalRunnerCluster.factory(
        new File(both, "clusters")), 2, 0, 1, new PrintStream(progress, true,
        StandardCharsets.UTF_8)).interleaved().run(both, false);
    String lines = progress.toString(StandardCharsets.UTF_8);
    int[] at = {
        lines.indexOf("[1/4] none histogram-ratings run 1: ok"),
        lines.indexOf("[2/4] small-sort-buffer histogram-ratings run 1: ok"),
        lines.indexOf("[3/4] small-sort-buffer histogram-ratings run 2: ok"),
        lines.indexOf("[4/4] none histogram-ratings run 2: ok")};
    for (int i = 0; i < at.length; i++) {
      assertTrue(at[i] >= 0 && (i == 0 || at[i] > at[i - 1]), "line " + (i + 1) + ":\n" + lines);
    }
    assertEquals(4, new ObjectMapper().readTree(new File(both, "results.json"))
        .get("results").size());
  }
}
