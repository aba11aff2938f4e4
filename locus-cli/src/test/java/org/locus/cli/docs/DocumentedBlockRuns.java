package org.locus.cli.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.locus.cli.OneNetnsTestAtATime;

/**
 * Every {@code ```bash} block of README.md and docs/*.md runs, in the order a reader meets
 * it, as {@code bash -e} in the repository root, and must exit 0: a documented command that
 * fails is a bug. {@code bin/locus} runs on the classes this build compiled
 * ({@code LOCUS_CLASSPATH}). Whatever cluster a block starts is stopped afterwards even when the
 * block failed before its own {@code cluster down}. Each block's output is kept in
 * {@code target/doc-commands/}. A block whose commands another block runs in the same order
 * ({@link CoveredBlocks}: the README's short examples repeat their feature page's) is checked
 * by that block's run.
 *
 * <p>The blocks use the fixed directories a reader types ({@code /tmp/c}, {@code /tmp/e}, ...),
 * so two checkouts running this test on one machine would start clusters in each other's
 * directories. The test holds a machine-wide lock ({@value #LOCK}) while it runs: a second run
 * waits for the first instead of failing on its clusters.
 */
class DocumentedCommandsTest {
  static final String LOCK = "/tmp/locus-documented-commands.lock";
  /** Commands that start netns clusters: such a block waits its turn with the netns tests. */
  private static final Pattern STARTS_NETNS =
      Pattern.compile("--netns\\b|--cluster netns\\b"
          + "|bin/locus bench (lowpower|gears|metadata)\\b");
  private static final Pattern CLUSTER_DIR =
      Pattern.compile("bin/locus cluster up\\b.*?--dir\\s+(\\S+)");
  private static final File LOGS = new File("target/doc-commands").getAbsoluteFile();
  private static FileChannel lockFile;
  private static FileLock machineLock;

  @BeforeAll
  static void takeTheMachineWideLock() throws IOException {
    lockFile = FileChannel.open(Path.of(LOCK), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    machineLock = lockFile.tryLock();
    if (machineLock == null) {
      System.err.println("waiting for " + LOCK + ": another run of the documented commands"
          + " holds it");
      machineLock = lockFile.lock();
    }
  }

  @AfterAll
  static void releaseTheLock() throws IOException {
    if (lockFile != null) {
      lockFile.close(); // releases the lock
    }
  }

  @TestFactory
  List<DynamicTest> everyBashBlockOfTheDocsRuns() throws Exception {
    List<RepositoryDocs.Block> bash = new ArrayList<>();
    for (File page : RepositoryDocs.pages()) {
      for (RepositoryDocs.Block block : RepositoryDocs.blocks(page)) {
        if (block.language().equals("bash")) {
          bash.add(block);
        }
      }
    }
    assertFalse(bash.isEmpty(), "the README shows commands in ```bash blocks");
    // A block whose commands another block runs in the same order (the README's one-minute
    // examples) is checked by that block's run instead of starting its clusters again.
    Map<Integer, Integer> covered = CoveredBlocks.coveredBy(bash.stream()
        .map(RepositoryDocs.Block::text).toList());
    Map<String, Integer> exits = new HashMap<>();
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 0; i < bash.size(); i++) {
      if (!covered.containsKey(i)) {
        RepositoryDocs.Block block = bash.get(i);
        tests.add(DynamicTest.dynamicTest(block.name(), () -> run(block, exits)));
      }
    }
    covered.forEach((a, b) -> {
      RepositoryDocs.Block block = bash.get(a);
      RepositoryDocs.Block by = bash.get(b);
      tests.add(DynamicTest.dynamicTest(block.name() + " (its commands run within " + by.name()
          + ")", () -> assertEquals(Integer.valueOf(0), exits.get(by.name()), block.name()
              + "'s commands ran within " + by.name() + ", which "
              + (exits.containsKey(by.name()) ? "failed" : "did not run"))));
    });
    return tests;
  }

  private static void run(RepositoryDocs.Block block, Map<String, Integer> exits)
      throws Exception {
    File root = RepositoryDocs.root();
    Files.createDirectories(LOGS.toPath());
    File log = new File(LOGS, block.name().replace(':', '-') + ".log");
    Set<String> clusterDirs = new LinkedHashSet<>();
    Matcher m = CLUSTER_DIR.matcher(block.text());
    while (m.find()) {
      clusterDirs.add(m.group(1));
    }
    // -x with a clock in the prompt: the log shows when each command began
    ProcessBuilder builder = new ProcessBuilder("bash", "-e", "-o", "pipefail", "-x", "-c",
        block.text())
        .directory(root)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(log);
    builder.environment().put("PS4", "+ [\\D{%T}] ");
    builder.environment().put("LOCUS_CLASSPATH", System.getProperty("java.class.path"));
    builder.environment().put("LOCUS_JAVA_OPTS", "-Xmx1g -XX:+UseSerialGC");
    int exit;
    // the turn is held until the block's clusters are down, also when it failed before its own
    try (OneNetnsTestAtATime.Turn turn = STARTS_NETNS.matcher(block.text()).find()
        ? OneNetnsTestAtATime.take(block.name()) : null) {
      try {
        Process process = builder.start();
        if (!process.waitFor(20, TimeUnit.MINUTES)) {
          process.destroyForcibly();
          exit = -1;
        } else {
          exit = process.exitValue();
        }
      } finally {
        for (String dir : clusterDirs) {
          stopCluster(root, dir);
        }
      }
    }
    exits.put(block.name(), exit);
    List<String> lines = Files.readAllLines(log.toPath());
    String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 40),
        lines.size()));
    assertEquals(0, exit, block.name() + " failed (exit " + exit + "; -1 = hung 20 min),"
        + " output in " + log + ":\n" + tail);
  }

  private static void stopCluster(File root, String dir) throws Exception {
    ProcessBuilder down = new ProcessBuilder("bin/locus", "cluster", "down", "--dir", dir)
        .directory(root).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    down.environment().put("LOCUS_CLASSPATH", System.getProperty("java.class.path"));
    Process process = down.start();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly();
    }
  }
}
