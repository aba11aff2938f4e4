package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The background process a cluster (embedded or netns) runs in: its directory made ready, the
 * process started on this JVM's classpath in a session of its own, and the wait until it
 * publishes {@code state=up} in {@code DIR/cluster.state}.
 */
public final class SupervisorProcess {
  /** How long a cluster may take to come up unless its caller says otherwise. */
  static final long START_TIMEOUT_SECONDS = 300;

  private SupervisorProcess() {
  }

  /**
   * Makes {@code dir} ready for a new cluster: created, writable, no cluster live in it, its log
   * directory there, no state file of an earlier cluster.
   */
  public static void prepare(ClusterDirectory dir) throws ClusterProcessException, IOException {
    File root = dir.root();
    if (!root.isDirectory() && !root.mkdirs()) {
      throw new ClusterProcessException("cannot create cluster directory " + root
          + "; choose a --dir you can write to");
    }
    File probe = new File(root, ".locus-write-probe");
    try {
      Files.write(probe.toPath(), new byte[0]);
      Files.delete(probe.toPath());
    } catch (IOException e) {
      throw new ClusterProcessException("cluster directory " + root + " is not writable ("
          + e.getMessage() + "); choose a --dir you can write to");
    }
    refuseLive(dir);
    if (!dir.logFile().getParentFile().isDirectory() && !dir.logFile().getParentFile().mkdirs()) {
      throw new ClusterProcessException("cannot create " + dir.logFile().getParentFile());
    }
    Files.deleteIfExists(dir.stateFile().toPath());
  }

  /** Refuses a directory some cluster process still holds. */
  public static void refuseLive(ClusterDirectory dir) throws ClusterProcessException,
      IOException {
    if (dir.isLive()) {
      throw new ClusterProcessException("a cluster is already running in " + dir.root()
          + " (pid " + dir.pid().map(String::valueOf).orElse("unknown") + "); stop it first"
          + " with 'locus cluster down --dir " + dir.root() + "'");
    }
  }

  /**
   * Starts {@code mainClass} on this JVM's classpath in a session of its own, its output
   * appended to {@code DIR/logs/cluster.out}.
   *
   * @param args the main class's arguments
   */
  public static Process spawn(ClusterDirectory dir, String mainClass, String heap,
      List<String> args) throws IOException {
    List<String> command = new ArrayList<>();
    if (new File("/usr/bin/setsid").canExecute()) {
      // A session of its own: the cluster outlives the terminal that started it.
      command.add("/usr/bin/setsid");
    }
    command.add(ProcessHandle.current().info().command()
        .orElse(System.getProperty("java.home") + "/bin/java"));
    command.add("-Xmx" + heap);
    command.add("-XX:+UseSerialGC");
    command.add("-Dlog4j.configuration=locus-daemon-log4j.properties");
    command.add("-Dlocus.log.file=" + dir.logFile());
    String home = System.getProperty("locus.home");
    if (home != null) {
      command.add("-Dlocus.home=" + home);
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(
            new File(dir.logFile().getParentFile(), "cluster.out")));
    return builder.start();
  }

  /**
   * Waits until the process publishes {@code state=up}, reporting every 10 s on
   * {@code progress}; a process that exits first, or that is not up within the start timeout
   * (then it is killed), fails the start.
   *
   * @return the published state
   */
  public static Properties awaitUp(ClusterDirectory dir, Process process, PrintStream progress,
      long startNanos) throws ClusterProcessException, IOException, InterruptedException {
    return awaitUp(dir, process, progress, startNanos, START_TIMEOUT_SECONDS);
  }

  /** {@link #awaitUp(ClusterDirectory, Process, PrintStream, long)} with a start timeout. */
  public static Properties awaitUp(ClusterDirectory dir, Process process, PrintStream progress,
      long startNanos, long timeoutSeconds) throws ClusterProcessException, IOException,
      InterruptedException {
    long lastReport = startNanos;
    while (true) {
      Properties state = dir.readState();
      if ("up".equals(state.getProperty("state"))) {
        return state;
      }
      if (!process.isAlive()) {
        String reason = state.getProperty("error",
            "the cluster process exited with code " + process.exitValue());
        throw new ClusterProcessException("cluster failed to start: " + reason + "; see "
            + dir.logFile());
      }
      long now = System.nanoTime();
      if (now - startNanos > TimeUnit.SECONDS.toNanos(timeoutSeconds)) {
        process.destroyForcibly().waitFor();
        throw new ClusterProcessException("cluster did not come up within "
            + timeoutSeconds + " s and was stopped; see " + dir.logFile());
      }
      if (now - lastReport > TimeUnit.SECONDS.toNanos(10)) {
        progress.printf("  still starting (%d s)%n",
            TimeUnit.NANOSECONDS.toSeconds(now - startNanos));
        lastReport = now;
      }
      process.waitFor(200, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Waits up to {@code seconds} for {@code process} to exit.
   *
   * @return whether it has exited
   */
  public static boolean awaitExit(ProcessHandle process, long seconds) throws Exception {
    try {
      process.onExit().get(seconds, TimeUnit.SECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return !process.isAlive();
    }
  }
}
