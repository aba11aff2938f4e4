package org.locus.cli.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code locus cluster up --feature NAME} starts a cluster for every key set in
 * {@code conf/features/}, as an operator would type it ({@code bin/locus}, a background
 * cluster), and {@code cluster down} stops it. Two nodes with a primary and a backup volume
 * each, no YARN: the key sets' HDFS side is what can refuse to start.
 */
class FeatureKeySetsStartTest {
  private static final File WORK = new File("target/test-clusters/features").getAbsoluteFile();

  @TestFactory
  List<DynamicTest> everyFeatureKeySetStartsACluster() {
    File[] sets = new File(RepositoryDocs.root(), "conf/features").listFiles(
        (d, n) -> n.endsWith(".xml"));
    assertTrue(sets != null && sets.length > 0, "conf/features has key sets");
    Arrays.sort(sets);
    List<DynamicTest> tests = new ArrayList<>();
    for (File set : sets) {
      String feature = set.getName().replaceAll("\\.xml$", "");
      tests.add(DynamicTest.dynamicTest(feature, () -> upAndDown(feature)));
    }
    return tests;
  }

  private static void upAndDown(String feature) throws Exception {
    File dir = new File(WORK, feature);
    FileUtil.fullyDelete(dir);
    try {
      String up = locus("cluster", "up", "--dir", dir.getPath(), "--nodes", "2",
          "--volumes", "DISK,ARCHIVE", "--feature", feature);
      assertTrue(up.startsWith("exit 0"), "cluster up --feature " + feature + ":\n" + up);
      String status = locus("cluster", "status", "--dir", dir.getPath());
      assertTrue(status.startsWith("exit 0"), status);
      assertFalse(status.contains("127.0.0.1 "), status);
    } finally {
      String down = locus("cluster", "down", "--dir", dir.getPath());
      assertEquals("exit 0", down.lines().findFirst().orElse(""), down);
    }
  }

  /** Runs bin/locus on this build's classes; returns "exit N" and the output. */
  private static String locus(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bin/locus"));
    command.addAll(List.of(args));
    File out = File.createTempFile("locus", ".out");
    try {
      ProcessBuilder builder = new ProcessBuilder(command).directory(RepositoryDocs.root())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectErrorStream(true).redirectOutput(out);
      builder.environment().put("LOCUS_CLASSPATH", System.getProperty("java.class.path"));
      builder.environment().put("LOCUS_JAVA_OPTS",
          "-Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
      Process process = builder.start();
      if (!process.waitFor(5, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        return "exit hung\n" + java.nio.file.Files.readString(out.toPath());
      }
      return "exit " + process.exitValue() + "\n" + java.nio.file.Files.readString(out.toPath());
    } finally {
      out.delete();
    }
  }
}
