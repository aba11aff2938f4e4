package org.locus.bench.run;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.util.Map;
import java.util.Properties;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.locus.netns.ClusterDirectory;

/** A cluster the runner submits to, started with one feature set. */
public interface BenchCluster extends Closeable {
  /** @return a client configuration for it */
  Configuration conf();

  /** @return the directory the bench keeps its inputs and outputs under */
  default Path root() {
    return new Path("/bench");
  }

  /**
   * @return bytes each worker node has sent and received on its network link so far, by node
   *     name; empty where links cannot be counted (one JVM on loopback, the local runner)
   */
  default Map<String, LinkBytes> linkBytes() throws IOException {
    return Map.of();
  }

  /**
   * Before each timed run: evicts the nodes' cached pages of the files on their disks, so that
   * the run reads its input from the devices. A no-op where the devices are not emulated (one
   * JVM on loopback, the local runner).
   */
  default void evictCachedData() throws IOException {
  }

  @Override
  void close();

  /**
   * @param kind {@code embedded} (a multi-host mini cluster per start) or {@code local}
   *     (MapReduce's local runner, no daemons)
   * @return the factory of that kind, its clusters' directories under {@code dir}
   */
  static Factory factory(String kind, File dir, int nodes) {
    return kind.equals("local") ? LocalRunnerCluster.factory(dir)
        : EmbeddedCluster.factory(dir, nodes);
  }

  /**
   * @param conf a client configuration of the cluster
   * @param dir the cluster's {@code locus cluster up} directory, or its configuration directory
   * @return the running cluster: a netns one (counted links) when {@code dir}'s state file says
   *     so, else any cluster {@code conf} reaches
   */
  static BenchCluster running(Configuration conf, File dir) throws IOException {
    ClusterDirectory cluster = new ClusterDirectory(dir.getAbsoluteFile());
    Properties state = cluster.readState();
    if ("netns".equals(state.getProperty("kind")) && "up".equals(state.getProperty("state"))) {
      return new RunningNetnsCluster(conf, cluster.root(),
          Integer.parseInt(state.getProperty("nodes", "0")));
    }
    return new ExistingCluster(conf);
  }

  /** Starts clusters, one per feature set. */
  @FunctionalInterface
  interface Factory {
    /**
     * @param feature the feature set's name, for directories and logs
     * @param keys the feature set's configuration keys (empty for {@code none})
     */
    BenchCluster start(String feature, Configuration keys) throws Exception;
  }
}
