package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Starts and stops one daemon JVM inside a node's namespace and cgroups.
 *
 * <p>The command is {@code setsid sh -c JOIN sh PROCS... -- ip netns exec NS java ...}: the
 * fixed script {@code JOIN} writes its own pid into the node's {@code cgroup.procs} files and
 * then execs the rest (before entering the namespace, whose private /sys hides the cgroup
 * mounts), so the JVM and every task it forks are charged to the node from their first
 * instruction; all values travel as arguments, none is spliced into the script. {@code setsid}
 * detaches the daemon from whoever started it, so it outlives the supervisor (and
 * {@code down} finds it through its namespace). The argument vector is saved next to the pid,
 * so {@code cluster node start} starts the same daemon again. With daemon users
 * ({@link DaemonUsers}) the last step before {@code java} is {@code setpriv} to the role's
 * account; the saved vector holds it, so a restarted daemon runs as the same user.
 */
public final class DaemonLauncher {
  private static final String JOIN =
      "for f in \"$@\"; do shift; [ \"$f\" = -- ] && break; echo $$ > \"$f\" || exit 1; done;"
      + " exec \"$@\"";

  private final ClusterLayout layout;
  private final NodeCgroup cgroups;
  private final boolean daemonUsers;

  /** A launcher that starts every daemon as the caller (root). */
  public DaemonLauncher(ClusterLayout layout, NodeCgroup cgroups) {
    this(layout, cgroups, false);
  }

  /** @param daemonUsers whether each daemon runs as its role's account */
  public DaemonLauncher(ClusterLayout layout, NodeCgroup cgroups, boolean daemonUsers) {
    this.layout = layout;
    this.cgroups = cgroups;
    this.daemonUsers = daemonUsers;
  }

  /**
   * @return the argument vector that runs {@code command} of {@code role} inside node's
   *     namespace and groups, as the role's account when daemons run as their own users
   */
  public List<String> inNode(String node, DaemonRole role, List<String> command) {
    return inNode(node, daemonUsers ? DaemonUsers.as(role.user(), command) : command);
  }

  /** @return the argument vector that runs {@code command} inside node's namespace and groups */
  public List<String> inNode(String node, List<String> command) {
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", JOIN, "sh"));
    for (File procs : cgroups.procsFiles(node)) {
      argv.add(procs.getPath());
    }
    argv.add("--");
    argv.addAll(List.of("ip", "netns", "exec", layout.namespace(node)));
    argv.addAll(command);
    return argv;
  }

  /**
   * @return the argument vector that runs {@code command} inside the node's groups but in the
   *     host's network and mount namespaces: for a node's FUSE daemon, whose mount the node's
   *     daemons (each in a mount namespace {@code ip netns exec} copies from the host's) must
   *     see, and whose disk I/O must count as the node's
   */
  public List<String> inNodeGroups(String node, List<String> command) {
    List<String> argv = new ArrayList<>(List.of("setsid", "/bin/sh", "-c", JOIN, "sh"));
    for (File procs : cgroups.procsFiles(node)) {
      argv.add(procs.getPath());
    }
    argv.add("--");
    argv.addAll(command);
    return argv;
  }

  /** @return the JVM command line of a daemon: capped heap, the given classpath, its main */
  public static List<String> javaCommand(DaemonRole role, String classpath, File logDir,
      List<String> args) {
    List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx" + role.heapMb() + "m",
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Dhadoop.log.dir=" + logDir,
        "-Dproc_" + role.word(), "-cp", classpath, role.mainClass()));
    command.addAll(args);
    return command;
  }

  /** @return the java binary the daemons and their tasks run with (this JVM's) */
  public static String javaBinary() {
    return System.getProperty("java.home") + "/bin/java";
  }

  /** Starts a daemon, saves its argument vector and pid, and returns its pid. */
  public long start(String node, DaemonRole role, List<String> javaCommand,
      Map<String, String> env) throws IOException {
    List<String> argv = new ArrayList<>();
    argv.add("setsid");
    argv.addAll(inNode(node, role, javaCommand));
    File argvFile = layout.daemonArgv(node, role.word());
    mkdirs(argvFile.getParentFile());
    Files.write(argvFile.toPath(), String.join("\0", argv).getBytes(StandardCharsets.UTF_8));
    Files.write(new File(argvFile.getParentFile(), node + "-" + role.word() + ".env").toPath(),
        envLines(env).getBytes(StandardCharsets.UTF_8));
    return launch(node, role, argv, env);
  }

  /** Starts a daemon again from its saved argument vector; returns its pid. */
  public long restart(String node, DaemonRole role) throws IOException {
    File argvFile = layout.daemonArgv(node, role.word());
    if (!argvFile.isFile()) {
      throw new IOException(node + " runs no " + role.word() + " (no " + argvFile + ")");
    }
    List<String> argv = List.of(Files.readString(argvFile.toPath()).split("\0"));
    Map<String, String> env = new java.util.LinkedHashMap<>();
    File envFile = new File(argvFile.getParentFile(), node + "-" + role.word() + ".env");
    for (String line : Files.readAllLines(envFile.toPath())) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        env.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return launch(node, role, argv, env);
  }

  /** @return the pid of a node's daemon if it is running */
  public Optional<ProcessHandle> running(String node, DaemonRole role) throws IOException {
    File pidFile = layout.daemonPid(node, role.word());
    if (!pidFile.isFile()) {
      return Optional.empty();
    }
    long pid = Long.parseLong(Files.readString(pidFile.toPath()).trim());
    return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
  }

  /**
   * Stops a node's daemon: SIGTERM, then SIGKILL after {@code graceSeconds}; {@code 0} kills at
   * once (a crash).
   *
   * @return whether a running daemon was stopped
   */
  public boolean stop(String node, DaemonRole role, long graceSeconds) throws IOException {
    Optional<ProcessHandle> handle = running(node, role);
    if (handle.isEmpty()) {
      return false;
    }
    ProcessHandle process = handle.get();
    if (graceSeconds > 0) {
      process.destroy();
      if (awaitExit(process, graceSeconds)) {
        return true;
      }
    }
    process.destroyForcibly();
    if (!awaitExit(process, 30)) {
      throw new IOException(role.word() + " on " + node + " (pid " + process.pid()
          + ") did not exit after SIGKILL");
    }
    return true;
  }

  private long launch(String node, DaemonRole role, List<String> argv, Map<String, String> env)
      throws IOException {
    File log = layout.daemonLog(node, role.word());
    mkdirs(log.getParentFile());
    ProcessBuilder builder = new ProcessBuilder(argv)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log));
    builder.environment().putAll(env);
    Process process = builder.start();
    Files.write(layout.daemonPid(node, role.word()).toPath(),
        (process.pid() + "\n").getBytes(StandardCharsets.UTF_8));
    return process.pid();
  }

  private static boolean awaitExit(ProcessHandle process, long seconds) {
    try {
      process.onExit().get(seconds, TimeUnit.SECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return !process.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !process.isAlive();
    } catch (java.util.concurrent.ExecutionException e) {
      return !process.isAlive();
    }
  }

  private static String envLines(Map<String, String> env) {
    StringBuilder text = new StringBuilder();
    env.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    return text.toString();
  }

  private static void mkdirs(File dir) throws IOException {
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
  }
}
