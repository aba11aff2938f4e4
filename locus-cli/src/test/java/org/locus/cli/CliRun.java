package org.locus.cli;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.locus.cli.command.Console;

/**
 * The outcome of one {@code locus} command line, run in this JVM or as a separate process.
 *
 * @param exitCode the exit code
 * @param out what it printed on standard output
 * @param err what it printed on standard error
 */
public record CliRun(int exitCode, String out, String err) {

  /** Runs {@code locus args} in this JVM. */
  public static CliRun inProcess(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new Locus().run(args, new Console(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    return new CliRun(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Runs {@code locus args} in this JVM and requires exit code {@code expected}; the failure
   * message holds the command line and everything it printed.
   */
  public static CliRun inProcessExpecting(int expected, String... args) {
    CliRun run = inProcess(args);
    org.junit.jupiter.api.Assertions.assertEquals(expected, run.exitCode(),
        "locus " + String.join(" ", args) + "\n" + run.out() + "\n" + run.err());
    return run;
  }

  /**
   * Runs {@code locus args} as its own JVM on this test's classpath, as {@code bin/locus} would,
   * with {@code locusHome} as the installation directory.
   */
  static CliRun asProcess(File locusHome, String... args) throws IOException,
      InterruptedException {
    return asProcess(locusHome, "512m", 5, args);
  }

  /**
   * Runs {@code locus args} as its own JVM with a heap of {@code heap} (e.g. "2g", what
   * bin/locus gives commands that run clusters in their own JVM), for at most {@code minutes}.
   */
  static CliRun asProcess(File locusHome, String heap, int minutes, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        ProcessHandle.current().info().command().orElseThrow(),
        "-Xmx" + heap, "-XX:+UseSerialGC",
        "-Dlocus.home=" + locusHome.getAbsolutePath(),
        "-Dlog4j.configuration=locus-cli-log4j.properties",
        "-cp", System.getProperty("java.class.path"),
        Locus.class.getName()));
    command.addAll(List.of(args));
    File out = File.createTempFile("locus-out", ".txt");
    File err = File.createTempFile("locus-err", ".txt");
    try {
      Process process = new ProcessBuilder(command)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(out).redirectError(err).start();
      if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IllegalStateException("locus " + String.join(" ", args) + " hung");
      }
      return new CliRun(process.exitValue(), Files.readString(out.toPath()),
          Files.readString(err.toPath()));
    } finally {
      out.delete();
      err.delete();
    }
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
