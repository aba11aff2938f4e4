package org.locus.cli.cluster;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterProcessException;
import org.locus.netns.NetnsClusterProcess;

/**
 * {@code locus cluster down}: stops the cluster in DIR and every process it started (YARN
 * containers included). The cluster process gets SIGTERM and stops its daemons in order; what
 * is still alive after the grace period is killed.
 */
public final class ClusterDownCommand extends OptionsCommand {
  private static final long GRACE_SECONDS = 90;

  public ClusterDownCommand() {
    super("locus cluster down");
  }

  @Override
  public String name() {
    return "down";
  }

  @Override
  public String summary() {
    return "stop the cluster in DIR and every process it started";
  }

  @Override
  protected Options options() {
    return new Options().addOption(DirectoryOption.option());
  }

  @Override
  protected String usageArguments() {
    return "--dir DIR";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    ClusterDirectory dir = DirectoryOption.of(line);
    if (NetnsStatus.isNetns(dir)) {
      return downNetns(dir, console);
    }
    if (!dir.isLive()) {
      console.out().println("cluster in " + dir.root() + ": already down");
      return 0;
    }
    long pid = dir.pid().orElseThrow(() -> new LocusException("the cluster in " + dir.root()
        + " is running but " + dir.pidFile() + " is missing; stop its process by hand"));
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty()) {
      throw new LocusException("the cluster in " + dir.root() + " holds its lock but pid "
          + pid + " is not running; is " + dir.pidFile() + " stale?");
    }
    long start = System.nanoTime();
    // Containers are re-parented once the cluster process is gone: list them first.
    List<ProcessHandle> descendants = handle.get().descendants().toList();
    console.err().printf("stopping the cluster in %s (pid %d)%n", dir.root(), pid);
    handle.get().destroy();
    boolean exited = awaitExit(handle.get(), GRACE_SECONDS, console);
    if (!exited) {
      console.err().println("  the cluster did not stop within " + GRACE_SECONDS
          + " s; killing it");
      handle.get().destroyForcibly();
      awaitExit(handle.get(), 10, console);
    }
    for (ProcessHandle child : descendants) {
      if (child.isAlive()) {
        child.destroyForcibly();
        awaitExit(child, 10, console);
      }
    }
    console.out().printf("cluster in %s: stopped in %.1f s%n", dir.root(),
        (System.nanoTime() - start) / 1e9);
    return 0;
  }

  /** Stops a netns cluster through {@link NetnsClusterProcess#stop}. */
  private static int downNetns(ClusterDirectory dir, Console console) throws Exception {
    long start = System.nanoTime();
    try {
      NetnsClusterProcess.stop(dir, console.err());
    } catch (ClusterProcessException e) {
      throw new LocusException(e.getMessage(), e);
    }
    console.out().printf("netns cluster in %s: removed in %.1f s%n", dir.root(),
        (System.nanoTime() - start) / 1e9);
    return 0;
  }

  private static boolean awaitExit(ProcessHandle process, long seconds, Console console)
      throws Exception {
    try {
      process.onExit().get(seconds, TimeUnit.SECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return !process.isAlive();
    }
  }
}
