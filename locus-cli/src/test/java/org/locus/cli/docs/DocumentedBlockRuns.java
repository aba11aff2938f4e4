package org.locus.cli.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
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
import org.junit.jupiter.api.TestInstance;

/**
 * Runs {@code ```bash} blocks of README.md and docs/*.md, in the order a reader meets them,
 * each as {@code bash -e} in the repository root; each must exit 0: a documented command that
 * fails is a bug. {@code bin/locus} runs on the classes this build compiled
 * ({@code LOCUS_CLASSPATH}). Whatever cluster a block starts is stopped afterwards even when the
 * block failed before its own {@code cluster down}. Each block's output is kept in
 * {@code target/doc-commands/}. A block whose commands another block runs in the same order
 * ({@link CoveredBlocks}: the README's short examples repeat their feature page's) is checked
 * by that block's run.
 *
 * <p>Every block belongs to one of two classes, by whether it starts netns clusters
 * ({@link #STARTS_NETNS}): {@link DocumentedCommandsTest} runs the others and
 * {@link DocumentedNetnsCommandsTest} these, holding the netns turn the netns test classes take.
 * So the blocks on embedded clusters never wait for a netns turn, and Surefire's two forks run
 * them beside the netns classes. A covered block goes with the block that runs it.
 *
 * <p>The blocks use the fixed directories a reader types ({@code /tmp/c}, {@code /tmp/e}, ...),
 * so two checkouts running these tests on one machine would start clusters in each other's
 * directories. Each class holds a machine-wide lock of its own (its constructor names it) while it
 * runs: a second run waits for the first instead of failing on its clusters. No directory is
 * typed in a block of both classes (checked by {@code noDirectoryIsSharedByTheTwoRuns}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DocumentedBlockRuns {
  /** Commands that start netns clusters: such a block runs with the netns test classes. */
  static final Pattern STARTS_NETNS =
      Pattern.compile("--netns\\b|--cluster netns\\b"
          + "|bin/locus bench (lowpower|gears|metadata)\\b");
  private static final Pattern CLUSTER_DIR =
      Pattern.compile("bin/locus cluster up\\b.*?--dir\\s+(\\S+)");
  private static final File LOGS = new File("target/doc-commands").getAbsoluteFile();
  private final String lock;
  private final boolean netnsBlocks;
  private FileChannel lockFile;

  /**
   * @param lock the machine-wide lock file this class holds while it runs
   * @param netnsBlocks whether this class runs the blocks that start netns clusters or the
   *     others
   */
  DocumentedBlockRuns(String lock, boolean netnsBlocks) {
    this.lock = lock;
    this.netnsBlocks = netnsBlocks;
  }

  /** @return whether this class runs the block (or the blocks it covers) */
  boolean runs(RepositoryDocs.Block block) {
    return startsNetns(block) == netnsBlocks;
  }

  static boolean startsNetns(RepositoryDocs.Block block) {
    return STARTS_NETNS.matcher(block.text()).find();
  }

  /** Every {@code ```bash} block of the docs, in reading order. */
  static List<RepositoryDocs.Block> bashBlocks() throws IOException {
    List<RepositoryDocs.Block> bash = new ArrayList<>();
    for (File page : RepositoryDocs.pages()) {
      for (RepositoryDocs.Block block : RepositoryDocs.blocks(page)) {
        if (block.language().equals("bash")) {
          bash.add(block);
        }
      }
    }
    return bash;
  }

  @BeforeAll
  void takeTheMachineWideLock() throws IOException {
    lockFile = FileChannel.open(Path.of(lock), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    if (lockFile.tryLock() == null) {
      System.err.println("waiting for " + lock + ": another run of these documented"
          + " commands holds it");
      lockFile.lock();
    }
  }

  @AfterAll
  void releaseTheLock() throws IOException {
    if (lockFile != null) {
      lockFile.close(); // releases the lock
    }
  }

  @TestFactory
  List<DynamicTest> everyBashBlockOfTheDocsRuns() throws Exception {
    List<RepositoryDocs.Block> bash = bashBlocks();
    assertFalse(bash.isEmpty(), "the README shows commands in ```bash blocks");
    // A block whose commands another block runs in the same order (the README's one-minute
    // examples) is checked by that block's run instead of starting its clusters again.
    Map<Integer, Integer> covered = CoveredBlocks.coveredBy(bash.stream()
        .map(RepositoryDocs.Block::text).toList());
    Map<String, Integer> exits = new HashMap<>();
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 0; i < bash.size(); i++) {
      RepositoryDocs.Block block = bash.get(i);
      if (!covered.containsKey(i) && runs(block)) {
        tests.add(DynamicTest.dynamicTest(block.name(), () -> run(block, exits)));
      }
    }
    covered.forEach((a, b) -> {
      RepositoryDocs.Block block = bash.get(a);
      RepositoryDocs.Block by = bash.get(b);
      if (runs(by)) {
        tests.add(DynamicTest.dynamicTest(block.name() + " (its commands run within "
            + by.name() + ")", () -> assertEquals(Integer.valueOf(0), exits.get(by.name()),
                block.name() + "'s commands ran within " + by.name() + ", which "
                + (exits.containsKey(by.name()) ? "failed" : "did not run"))));
      }
    });
    assertFalse(tests.isEmpty(), getClass().getSimpleName() + " found no block to run");
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
    // C1 only, as the netns daemons and the test clusters' tasks run: a client command is over
    // before C2 would pay, and C2's compiler threads take CPU from the clusters
    builder.environment().put("LOCUS_JAVA_OPTS",
        "-Xmx1g -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    int exit;
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
