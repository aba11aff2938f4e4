package org.locus.bench.run;

import org.apache.hadoop.conf.Configuration;

/**
 * A cluster the bench did not start (a {@code locus cluster up} directory, embedded or netns,
 * or any Hadoop client configuration): the bench submits to it and leaves it running.
 */
public final class ExistingCluster implements BenchCluster {
  private final Configuration conf;

  public ExistingCluster(Configuration conf) {
    this.conf = conf;
  }

  @Override
  public Configuration conf() {
    return conf;
  }

  @Override
  public void close() {
  }
}
