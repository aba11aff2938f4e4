package org.locus.cli.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.locus.cli.Console;
import org.locus.cli.LocusException;
import org.locus.cli.OptionsCommand;
import org.locus.cli.UsageException;

/** {@code locus cluster up}: starts an embedded cluster in the background. */
public final class ClusterUpCommand extends OptionsCommand {
  /** How long the cluster may take to come up. */
  private static final long START_TIMEOUT_SECONDS = 300;

  public ClusterUpCommand() {
    super("locus cluster up");
  }

  @Override
  public String name() {
    return "up";
  }

  @Override
  public String summary() {
    return "start an embedded multi-host cluster in the background and write its client"
        + " configuration to DIR/conf";
  }

  @Override
  protected Options options() {
    Options options = ClusterSpec.options();
    NetnsOptions.addTo(options);
    return options;
  }

  @Override
  protected String usageArguments() {
    return "--dir DIR [--nodes N] [--volumes DISK,ARCHIVE] [--yarn] [--feature NAME ...]"
        + " [--conf KEY=VALUE ...] [--netns [--link RATE] [--disk-read RATE] [--disk-write RATE]"
        + " [--node-memory SIZE] [--disk-size SIZE]]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("dir")) {
      throw new UsageException("--dir DIR is required");
    }
    ClusterSpec spec = ClusterSpec.from(line);
    FeatureCatalog catalog = FeatureCatalog.installed();
    spec.checkFeatures(catalog);
    ClusterDirectory dir = new ClusterDirectory(new File(line.getOptionValue("dir")));
    if (line.hasOption("netns")) {
      return new NetnsUp(dir).start(line, spec, catalog, console);
    }
    prepare(dir);

    long startNanos = System.nanoTime();
    console.err().printf("starting a %d-node cluster in %s (log: %s)%n", spec.nodes(),
        dir.root(), dir.logFile());
    Process process = spawn(dir, ClusterDaemon.class.getName(),
        System.getenv().getOrDefault("LOCUS_CLUSTER_HEAP", "2g"), spec.toArguments());
    dir.writePid(process.pid());
    Properties state = awaitUp(dir, process, console, startNanos);
    ClusterStatusCommand.printState(dir, state, console);
    console.out().printf("%nclients: export HADOOP_CONF_DIR=%s   (or pass --conf %s)%n",
        dir.confDir(), dir.root());
    return 0;
  }

  static void prepare(ClusterDirectory dir) throws LocusException, IOException {
    File root = dir.root();
    if (!root.isDirectory() && !root.mkdirs()) {
      throw new LocusException("cannot create cluster directory " + root
          + "; choose a --dir you can write to");
    }
    File probe = new File(root, ".locus-write-probe");
    try {
      Files.write(probe.toPath(), new byte[0]);
      Files.delete(probe.toPath());
    } catch (IOException e) {
      throw new LocusException("cluster directory " + root + " is not writable ("
          + e.getMessage() + "); choose a --dir you can write to");
    }
    if (dir.isLive()) {
      throw new LocusException("a cluster is already running in " + root + " (pid "
          + dir.pid().map(String::valueOf).orElse("unknown") + "); stop it first with"
          + " 'locus cluster down --dir " + root + "'");
    }
    if (!dir.logFile().getParentFile().isDirectory() && !dir.logFile().getParentFile().mkdirs()) {
      throw new LocusException("cannot create " + dir.logFile().getParentFile());
    }
    Files.deleteIfExists(dir.stateFile().toPath());
  }

  /** Starts {@code mainClass} on this JVM's classpath in a session of its own. */
  static Process spawn(ClusterDirectory dir, String mainClass, String heap, List<String> args)
      throws IOException {
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
    if (mainClass.equals(ClusterDaemon.class.getName())) {
      command.add("--dir");
    }
    command.add(dir.root().getPath());
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(
            new File(dir.logFile().getParentFile(), "cluster.out")));
    return builder.start();
  }

  static Properties awaitUp(ClusterDirectory dir, Process process, Console console,
      long startNanos) throws Exception {
    long lastReport = startNanos;
    while (true) {
      Properties state = dir.readState();
      if ("up".equals(state.getProperty("state"))) {
        return state;
      }
      if (!process.isAlive()) {
        String reason = state.getProperty("error",
            "the cluster process exited with code " + process.exitValue());
        throw new LocusException("cluster failed to start: " + reason + "; see "
            + dir.logFile());
      }
      long now = System.nanoTime();
      if (now - startNanos > TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS)) {
        process.destroyForcibly().waitFor();
        throw new LocusException("cluster did not come up within " + START_TIMEOUT_SECONDS
            + " s and was stopped; see " + dir.logFile());
      }
      if (now - lastReport > TimeUnit.SECONDS.toNanos(10)) {
        console.err().printf("  still starting (%d s)%n",
            TimeUnit.NANOSECONDS.toSeconds(now - startNanos));
        lastReport = now;
      }
      process.waitFor(200, TimeUnit.MILLISECONDS);
    }
  }
}
