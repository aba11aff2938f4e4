package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * A netns cluster in the background: started by writing the dist bundle and the spec into its
 * directory and spawning its supervisor ({@link NetnsClusterDaemon}), stopped by signalling the
 * supervisor and removing whatever the ledger still records. The mechanism behind
 * {@code locus cluster up --netns} and {@code locus cluster down}, and the clusters the benches
 * start for themselves; the command line is the caller's.
 */
public final class NetnsClusterProcess {
  /** Heap of the supervisor: it only builds, waits and tears down. */
  private static final String SUPERVISOR_HEAP = "192m";
  /** How long the supervisor may take to stop its daemons. */
  private static final long GRACE_SECONDS = 90;

  private NetnsClusterProcess() {
  }

  /**
   * Checks everything that needs nothing created (no live cluster in {@code dir}, root, memory
   * for the nodes), writes the dist bundle of the Locus checkout {@code home} and the spec, and
   * starts the supervisor; returns once the cluster is up.
   *
   * @param spec the cluster; its dist lib directory is {@link DistBundle#libDir} of the
   *     layout's dist directory
   * @param progress where the start and the wait are reported
   * @return the state the supervisor published: addresses, limits, pid
   */
  public static Properties start(ClusterDirectory dir, NetnsClusterSpec spec, File home,
      PrintStream progress) throws ClusterProcessException, IOException, InterruptedException {
    ClusterLayout layout = new ClusterLayout(dir.root());
    check(dir, spec);
    SupervisorProcess.prepare(dir);
    try {
      new DistBundle(home).writeTo(layout.distDir());
    } catch (IllegalStateException e) {
      throw new ClusterProcessException(e.getMessage());
    }
    NetnsSpecFile.write(spec, NetnsSpecFile.in(dir));

    long startNanos = System.nanoTime();
    progress.printf("starting a %d-node netns cluster in %s (log: %s)%n", spec.nodes(),
        dir.root(), dir.logFile());
    Process process = SupervisorProcess.spawn(dir, NetnsClusterDaemon.class.getName(),
        SUPERVISOR_HEAP, List.of(dir.root().getPath()));
    dir.writePid(process.pid());
    return SupervisorProcess.awaitUp(dir, process, progress, startNanos,
        NetnsStartTimeout.seconds(spec));
  }

  /**
   * Refuses, before anything is created, a directory a cluster still runs in and a spec this
   * machine cannot run (not root, too little memory for the nodes).
   */
  public static void check(ClusterDirectory dir, NetnsClusterSpec spec)
      throws ClusterProcessException, IOException {
    SupervisorProcess.refuseLive(dir);
    try {
      NetnsCluster.check(new ClusterLayout(dir.root()), spec, memAvailableBytes());
    } catch (IllegalStateException e) {
      throw new ClusterProcessException(e.getMessage());
    }
  }

  /**
   * Stops the supervisor (which tears down), then removes whatever the ledger still records:
   * that covers a half-built cluster and a supervisor killed with SIGKILL.
   *
   * @param progress where the stop is reported
   */
  public static void stop(ClusterDirectory dir, PrintStream progress) throws Exception {
    if (dir.isLive()) {
      Optional<ProcessHandle> supervisor = dir.pid().flatMap(ProcessHandle::of);
      if (supervisor.isPresent()) {
        progress.printf("stopping the netns cluster in %s (supervisor pid %d)%n",
            dir.root(), supervisor.get().pid());
        supervisor.get().destroy();
        if (!SupervisorProcess.awaitExit(supervisor.get(), GRACE_SECONDS)) {
          supervisor.get().destroyForcibly();
          SupervisorProcess.awaitExit(supervisor.get(), 10);
        }
      }
    }
    List<String> left = new ClusterTeardown(new ClusterLayout(dir.root())).run();
    if (!left.isEmpty()) {
      throw new ClusterProcessException("could not remove: " + String.join("; ", left));
    }
  }

  /** @return MemAvailable from /proc/meminfo */
  public static long memAvailableBytes() throws IOException {
    for (String line : Files.readAllLines(new File("/proc/meminfo").toPath())) {
      if (line.startsWith("MemAvailable:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
      }
    }
    throw new IOException("/proc/meminfo has no MemAvailable line");
  }
}
