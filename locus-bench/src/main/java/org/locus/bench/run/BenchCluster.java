package org.locus.bench.run;

import java.io.Closeable;
import java.io.IOException;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

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

  @Override
  void close();

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
