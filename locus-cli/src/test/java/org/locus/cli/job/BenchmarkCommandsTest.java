package org.locus.cli.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.cli.CliRun;
import org.locus.kit.LocusMiniCluster;

/**
 * {@code locus generate} and {@code locus job NAME} on a 2-node embedded cluster with YARN: the
 * commands {@code docs/benchmarks.md} documents, exactly as written there, then checks on what
 * they left. The steps build on each other and run in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BenchmarkCommandsTest {
  private static final File WORK = new File("target/test-clusters/bench-cli").getAbsoluteFile();
  private static final File DOC = new File("../docs/benchmarks.md").getAbsoluteFile();
  private static LocusMiniCluster cluster;
  private static String conf;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = LocusMiniCluster.builder(new File(WORK, "cluster"))
        .nodes(2)
        .volumes(StorageType.DISK)
        .yarn(true)
        .nodeManagerMemoryMb(3072)
        .set("dfs.replication", "1")
        .start();
    File confDir = new File(WORK, "conf");
    cluster.writeClientConfiguration(confDir);
    conf = confDir.getPath();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String[] run(int expectedExit, String... args) {
    CliRun run = CliRun.inProcessExpecting(expectedExit, args);
    return new String[] {run.out(), run.err()};
  }

  /** The command block that follows "These commands are run" in the doc. */
  static List<String> documentedCommands() throws IOException {
    List<String> lines = Files.readAllLines(DOC.toPath());
    int start = lines.indexOf(lines.stream().filter(l -> l.startsWith("These commands are run"))
        .findFirst().orElseThrow());
    List<String> commands = new ArrayList<>();
    boolean inBlock = false;
    for (String line : lines.subList(start, lines.size())) {
      if (line.startsWith("```")) {
        if (inBlock) {
          break;
        }
        inBlock = true;
      } else if (inBlock) {
        commands.add(line);
      }
    }
    return commands;
  }

  @Test
  @Order(1)
  void everyDocumentedCommandSucceeds() throws IOException {
    List<String> commands = documentedCommands();
    assertEquals(9, commands.size(), commands.toString());
    for (String command : commands) {
      assertTrue(command.startsWith("bin/locus "), command);
      List<String> args = new ArrayList<>(Arrays.asList(
          command.substring("bin/locus ".length()).split(" ")));
      args.addAll(List.of("--conf", conf));
      run(0, args.toArray(new String[0]));
    }
  }

  @Test
  @Order(2)
  void histogramRatingsWroteFiveRatingLines() throws IOException {
    FileSystem fs = cluster.getFileSystem();
    List<String> lines = new ArrayList<>();
    for (org.apache.hadoop.fs.FileStatus part : fs.listStatus(
        new Path("/bench/histogram-ratings"), p -> p.getName().startsWith("part-"))) {
      try (var in = fs.open(part.getPath())) {
        lines.addAll(List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8)
            .split("\n")));
      }
    }
    assertEquals(5, lines.size(), lines.toString());
    for (int rating = 1; rating <= 5; rating++) {
      assertTrue(lines.get(rating - 1).matches(rating + "\t[1-9]\\d*"), lines.toString());
    }
  }

  @Test
  @Order(3)
  void teravalidateOfUnsortedRecordsExitsOne() {
    String[] outErr = run(1, "job", "teravalidate", "--input", "/bench/tera", "--output",
        "/bench/tera-unsorted-check", "--conf", conf);
    assertTrue(outErr[1].contains("/bench/tera is not sorted"), outErr[1]);
  }

  @Test
  @Order(4)
  void generateRefusesAnExistingOutput() {
    String err = run(1, "generate", "text", "--size", "1k", "--output", "/bench/text",
        "--conf", conf)[1];
    assertTrue(err.contains("/bench/text already exists"), err);
  }

  @Test
  @Order(5)
  void jobRefusesAMissingInput() {
    String err = run(1, "job", "self-join", "--input", "/bench/no-such", "--output",
        "/bench/sj", "--conf", conf)[1];
    assertTrue(err.contains("/bench/no-such does not exist"), err);
    assertFalse(err.contains("Exception"), err);
  }

  @Test
  @Order(6)
  void theDocumentedReplayHitEveryByteTargetOnTheCluster() throws IOException {
    // fb2009's first 0.05 h: job0, job1, job2; bytes / (600 / 2) are all below 64 KiB, so
    // every non-zero target is raised to it
    JsonNode replay = new ObjectMapper().readTree(new File("target/swim-replay/replay.json"));
    assertEquals("fb2009", replay.get("trace").asText());
    List<String> names = new ArrayList<>();
    for (JsonNode job : replay.get("jobs")) {
      names.add(job.get("name").asText());
      assertTrue(job.get("succeeded").asBoolean(), job.toString());
      assertTrue(job.get("submittedMillis").asLong() >= job.get("plannedMillis").asLong(),
          job.toString());
      for (String count : List.of("input", "shuffle", "output")) {
        long target = job.get("target").get(count).asLong();
        long measured = job.get("measured").get(count).asLong();
        assertEquals(65536, target, count + " target: " + job);
        assertTrue(Math.abs(measured - target) <= target / 10, count + ": " + job);
      }
      assertTrue(job.get("onTarget").asBoolean(), job.toString());
    }
    assertEquals(List.of("job0", "job1", "job2"), names);
    String timeline = Files.readString(new File("target/swim-replay/timeline.svg").toPath());
    assertEquals(3, timeline.split("<rect class=\"job\"", -1).length - 1, timeline);
  }
}
