package org.locus.bench.run;

import java.io.Closeable;

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
