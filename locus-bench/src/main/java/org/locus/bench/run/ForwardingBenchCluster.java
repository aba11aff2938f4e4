package org.locus.bench.run;

import java.io.IOException;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A feature's cluster for one layout of its bench: a started recipe cluster plus what the
 * feature sets up on it once it runs (storage policies on paths, client keys). Every call goes
 * to the started cluster; a feature overrides only what differs for it, as Hadoop's
 * {@code FilterFileSystem} does for file systems.
 */
public abstract class ForwardingBenchCluster implements BenchCluster {
  private final BenchCluster cluster;

  protected ForwardingBenchCluster(BenchCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public Configuration conf() {
    return cluster.conf();
  }

  @Override
  public Path root() {
    return cluster.root();
  }

  @Override
  public Map<String, LinkBytes> linkBytes() throws IOException {
    return cluster.linkBytes();
  }

  @Override
  public void evictCachedData() throws IOException {
    cluster.evictCachedData();
  }

  @Override
  public void close() {
    cluster.close();
  }
}
