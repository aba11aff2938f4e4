package org.locus.netns;

import java.io.File;
import java.nio.channels.FileLock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervisor of a netns cluster: holds {@code DIR/cluster.lock}, builds the cluster from
 * {@code DIR/netns.spec}, publishes {@code DIR/cluster.state}, and on SIGTERM tears everything
 * down. The daemons do not depend on it: after a {@code kill -9} of the supervisor they run on,
 * and {@code locus cluster down} removes them and every other resource from the ledger.
 *
 * <p>Arguments: {@code DIR}.
 */
public final class NetnsClusterDaemon {
  private static final Logger LOG = LoggerFactory.getLogger(NetnsClusterDaemon.class);

  private NetnsClusterDaemon() {
  }

  public static void main(String[] args) throws Exception {
    ClusterDirectory dir = new ClusterDirectory(new File(args[0]));
    Optional<FileLock> lock = dir.acquire();
    if (lock.isEmpty()) {
      System.err.println("another cluster process holds " + dir.root() + "/cluster.lock");
      System.exit(1);
    }
    ClusterLayout layout = new ClusterLayout(dir.root());
    NetnsClusterSpec spec = NetnsSpecFile.read(NetnsSpecFile.in(dir));
    Properties state = new Properties();
    state.setProperty("kind", "netns");
    state.setProperty("state", "starting");
    state.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
    dir.writeState(state);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.info("Tearing down the netns cluster in {}", dir.root());
      try {
        List<String> left = new ClusterTeardown(layout).run();
        if (!"failed".equals(state.getProperty("state"))) {
          state.setProperty("state", left.isEmpty() ? "down" : "failed");
        }
        if (!left.isEmpty()) {
          state.setProperty("error", "teardown left: " + String.join("; ", left));
        }
        dir.writeState(state);
      } catch (Exception e) {
        LOG.error("Error while tearing down", e);
      } finally {
        stopped.countDown();
      }
    }, "locus-netns-teardown"));
    try {
      Properties built = new NetnsCluster(layout, spec).up();
      state.putAll(built);
    } catch (Throwable e) {
      LOG.error("netns cluster failed to start", e);
      state.setProperty("state", "failed");
      state.setProperty("error", e.toString().lines().findFirst().orElse(""));
      dir.writeState(state);
      System.exit(1);
      return;
    }
    state.setProperty("state", "up");
    state.setProperty("started", Instant.now().toString());
    state.setProperty("metadata", spec.metadata().word());
    if (spec.metadata().coupled()) {
      List<String> partitions = new PartitionedNamespace(layout, spec.nodes()).nameservices();
      state.setProperty("namenode", "hdfs://" + partitions.get(0) + " .. hdfs://"
          + partitions.get(partitions.size() - 1) + " (one partition per node, --metadata "
          + spec.metadata().word() + ")");
    } else {
      state.setProperty("namenode", "hdfs://" + layout.address(ClusterLayout.MASTER) + ":8020");
    }
    if (spec.yarn()) {
      state.setProperty("resourcemanager", layout.address(ClusterLayout.MASTER) + ":8032");
    }
    state.setProperty("nodes", Integer.toString(spec.nodes()));
    state.setProperty("link", Rate.formatLink(spec.linkBitsPerSecond()));
    state.setProperty("diskRead", Rate.formatDisk(spec.diskReadBytesPerSecond()));
    state.setProperty("diskWrite", Rate.formatDisk(spec.diskWriteBytesPerSecond()));
    state.setProperty("nodeMemory", (spec.nodeMemoryBytes() >> 20) + "m");
    state.setProperty("nodeCpus", NodeCpus.format(spec.nodeCpus()));
    state.setProperty("diskModel", spec.diskModel().label());
    dir.writeState(state);
    LOG.info("netns cluster up in {}", dir.root());
    stopped.await();
  }
}
