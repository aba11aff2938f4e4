package org.locus.cli.cluster;

import java.io.File;
import java.nio.channels.FileLock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.locus.kit.ClusterNode;
import org.locus.kit.ClusterVolume;
import org.locus.kit.LocusMiniCluster;
import org.locus.netns.ClusterDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background process behind {@code locus cluster up}: holds the directory's lock, runs the
 * embedded cluster, publishes its client configuration and state, and stops the cluster when the
 * process is asked to end (SIGTERM from {@code locus cluster down}).
 *
 * <p>Arguments: {@code --dir DIR} followed by {@link ClusterSpec#toArguments()}.
 */
public final class ClusterDaemon {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterDaemon.class);

  private ClusterDaemon() {
  }

  public static void main(String[] args) throws Exception {
    CommandLine line = new DefaultParser().parse(ClusterSpec.options(), args);
    ClusterDirectory dir = new ClusterDirectory(new File(line.getOptionValue("dir")));
    Optional<FileLock> lock = dir.acquire();
    if (lock.isEmpty()) {
      System.err.println("another cluster process holds " + dir.root() + "/cluster.lock");
      System.exit(1);
    }
    ClusterSpec spec = ClusterSpec.from(line);
    Properties state = new Properties();
    state.setProperty("state", "starting");
    state.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
    dir.writeState(state);
    LOG.info("Starting cluster {} in {}", Arrays.toString(args), dir.root());

    LocusMiniCluster cluster;
    try {
      cluster = spec.toBuilder(dir.dataDir(), FeatureCatalog.installed()).start();
      cluster.writeClientConfiguration(dir.confDir());
    } catch (Throwable e) {
      LOG.error("Cluster failed to start", e);
      state.setProperty("state", "failed");
      state.setProperty("error", e.toString().lines().findFirst().orElse(""));
      dir.writeState(state);
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.info("Stopping cluster in {}", dir.root());
      try {
        cluster.close();
        state.setProperty("state", "down");
        dir.writeState(state);
      } catch (Exception e) {
        LOG.error("Error while stopping the cluster", e);
      } finally {
        stopped.countDown();
      }
    }, "locus-cluster-stop"));
    dir.writeState(describe(cluster, spec, state));
    LOG.info("Cluster up in {}", dir.root());
    stopped.await();
  }

  private static Properties describe(LocusMiniCluster cluster, ClusterSpec spec,
      Properties state) {
    state.setProperty("state", "up");
    state.setProperty("started", Instant.now().toString());
    state.setProperty("namenode", cluster.getConfiguration().get("fs.defaultFS"));
    if (cluster.getYarnCluster() != null) {
      state.setProperty("resourcemanager",
          cluster.getConfiguration().get("yarn.resourcemanager.address"));
    }
    state.setProperty("features", String.join(",", spec.features()));
    state.setProperty("nodes", Integer.toString(cluster.nodes().size()));
    for (ClusterNode node : cluster.nodes()) {
      String prefix = "node." + node.number() + ".";
      state.setProperty(prefix + "host", node.host());
      state.setProperty(prefix + "rack", node.rack());
      state.setProperty(prefix + "volumes", String.join(";",
          node.volumes().stream().map(ClusterVolume::toString).toList()));
    }
    return state;
  }
}
