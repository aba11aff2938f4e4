package org.locus.cli.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Properties;

import org.apache.commons.cli.CommandLine;
import org.locus.cli.Console;
import org.locus.cli.LocusException;
import org.locus.cli.dist.DistBundle;
import org.locus.netns.ClusterLayout;
import org.locus.netns.NetnsCluster;
import org.locus.netns.NetnsClusterSpec;

/**
 * {@code locus cluster up --netns}: checks everything that needs nothing created, writes the
 * dist bundle the daemons will load Locus code from, and starts the supervisor
 * ({@link NetnsClusterDaemon}) in the background.
 */
final class NetnsUp {
  /** Heap of the supervisor: it only builds, waits and tears down. */
  private static final String SUPERVISOR_HEAP = "192m";

  private final ClusterDirectory dir;

  NetnsUp(ClusterDirectory dir) {
    this.dir = dir;
  }

  int start(CommandLine line, ClusterSpec base, FeatureCatalog catalog, Console console)
      throws Exception {
    ClusterLayout layout = new ClusterLayout(dir.root());
    NetnsClusterSpec spec = NetnsOptions.from(line, base, catalog,
        DistBundle.libDir(layout.distDir()));
    if (dir.isLive()) {
      throw new LocusException("a cluster is already running in " + dir.root() + " (pid "
          + dir.pid().map(String::valueOf).orElse("unknown") + "); stop it first with"
          + " 'locus cluster down --dir " + dir.root() + "'");
    }
    try {
      NetnsCluster.check(layout, spec, memAvailableBytes());
    } catch (IllegalStateException e) {
      throw new LocusException(e.getMessage());
    }
    String home = System.getProperty("locus.home");
    if (home == null) {
      throw new LocusException("locus.home is not set; run through bin/locus");
    }
    ClusterUpCommand.prepare(dir);
    new DistBundle(new File(home)).writeTo(layout.distDir());
    NetnsOptions.write(spec, new File(dir.root(), "netns.spec"));

    long startNanos = System.nanoTime();
    console.err().printf("starting a %d-node netns cluster in %s (log: %s)%n", spec.nodes(),
        dir.root(), dir.logFile());
    Process process = ClusterUpCommand.spawn(dir, NetnsClusterDaemon.class.getName(),
        SUPERVISOR_HEAP, List.of());
    dir.writePid(process.pid());
    Properties state = ClusterUpCommand.awaitUp(dir, process, console, startNanos);
    NetnsStatus.print(dir, state, console);
    console.out().printf("%nclients: export HADOOP_CONF_DIR=%s   (or pass --conf %s)%n",
        dir.confDir(), dir.root());
    return 0;
  }

  /** @return MemAvailable from /proc/meminfo */
  static long memAvailableBytes() throws IOException {
    for (String line : Files.readAllLines(new File("/proc/meminfo").toPath())) {
      if (line.startsWith("MemAvailable:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
      }
    }
    throw new IOException("/proc/meminfo has no MemAvailable line");
  }
}
