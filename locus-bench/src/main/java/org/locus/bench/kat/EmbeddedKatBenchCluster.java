package org.locus.bench.kat;

import java.io.File;
import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.kit.LocusMiniCluster;

/** {@link KatBenchCluster} on the embedded multi-host cluster: fast, loopback network. */
final class EmbeddedKatBenchCluster implements KatBenchCluster {
  private final File work;
  private final int nodes;
  private final LocusMiniCluster cluster;

  /** @param katKeys KAT's feature key set */
  EmbeddedKatBenchCluster(File work, int nodes, long blockBytes, Configuration katKeys)
      throws Exception {
    this.work = work;
    this.nodes = nodes;
    this.cluster = LocusMiniCluster.builder(work)
        .nodes(nodes).volumes(StorageType.DISK).yarn(true)
        .nodeManagerMemoryMb(3072)
        .setAll(katKeys)
        .set("dfs.blocksize", Long.toString(blockBytes))
        .set("dfs.replication", "2")
        .start();
  }

  @Override
  public Configuration conf() {
    return cluster.getConfiguration();
  }

  @Override
  public DistributedFileSystem fs() throws IOException {
    return cluster.getFileSystem();
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
