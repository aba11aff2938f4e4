package org.locus.bench.kat;

import java.io.File;
import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.run.EmbeddedCluster;

/** {@link KatBenchCluster} on the embedded multi-host cluster: fast, loopback network. */
final class EmbeddedKatBenchCluster implements KatBenchCluster {
  private final File work;
  private final int nodes;
  private final EmbeddedCluster cluster;

  /** @param katKeys KAT's feature key set */
  EmbeddedKatBenchCluster(File work, int nodes, long blockBytes, Configuration katKeys)
      throws Exception {
    this.work = work;
    this.nodes = nodes;
    this.cluster = EmbeddedCluster.start(work,
        KatBenchCluster.recipe(nodes, blockBytes, katKeys).build());
  }

  @Override
  public Configuration conf() {
    return cluster.conf();
  }

  @Override
  public DistributedFileSystem fs() throws IOException {
    return cluster.fileSystem();
  }

  @Override
  public String describe() {
    return "Embedded cluster of " + nodes + " nodes (one loopback address each, YARN, one JVM):"
        + " every link is loopback, free and unshaped";
  }

  @Override
  public long workerBytesSent() {
    return -1;
  }

  @Override
  public void close() throws IOException {
    try {
      cluster.close();
    } finally {
      FileUtil.fullyDelete(work);
    }
  }
}
