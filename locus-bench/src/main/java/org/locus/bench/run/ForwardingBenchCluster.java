package org.locus.bench.run;

import java.io.IOException;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A cluster that hands every call to another and overrides only what differs, as Hadoop's
 * {@code FilterFileSystem} does for file systems: {@link NetnsCluster} over the running netns
 * cluster it started (it adds the stop), or a feature's cluster for one layout of its bench over
 * a started recipe cluster (it adds what the feature sets up once the cluster runs: storage
 * policies on paths, client keys, counters read on close).
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
