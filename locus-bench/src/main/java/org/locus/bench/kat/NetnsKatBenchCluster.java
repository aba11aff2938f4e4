package org.locus.bench.kat;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.run.LinkBytes;
import org.locus.bench.run.NetnsCluster;
import org.locus.netns.NetnsClusterProcess;
import org.locus.netns.Rate;
import org.locus.netns.Size;

/**
 * {@link KatBenchCluster} on a netns cluster: brought up and down by the same
 * {@link NetnsClusterProcess} as {@code locus cluster up --netns} (stock daemons, site files,
 * KAT's feature keys, the dist bundle), every node's link shaped to {@code link}; the wire bytes
 * are the nodes' veth counters.
 */
final class NetnsKatBenchCluster implements KatBenchCluster {
  private final int nodes;
  private final String link;
  private final String nodeMemory;
  private final NetnsCluster cluster;
  private DistributedFileSystem fs;

  /**
   * @param katKeys KAT's feature key set
   * @param home the Locus checkout the dist bundle is written from
   * @param err where the cluster's start is reported
   */
  NetnsKatBenchCluster(File dir, int nodes, String link, String nodeMemory, long blockBytes,
      Configuration katKeys, File home, PrintStream err) throws Exception {
    this.nodes = nodes;
    this.link = link;
    this.nodeMemory = nodeMemory;
    this.cluster = NetnsCluster.start(dir, KatBenchCluster.recipe(nodes, blockBytes, katKeys)
        .link(Rate.linkBitsPerSecond("link", link))
        .nodeMemory(Size.bytes("node-memory", nodeMemory))
        .build(), "the bench", home, err);
  }

  @Override
  public Configuration conf() {
    return cluster.conf();
  }

  @Override
  public synchronized DistributedFileSystem fs() throws IOException {
    if (fs == null) {
      fs = (DistributedFileSystem) FileSystem.newInstance(cluster.conf());
    }
    return fs;
  }

  @Override
  public String describe() {
    return "netns cluster of " + nodes + " nodes (stock Hadoop 3.5.0 daemons as separate"
        + " processes, one network namespace per node, YARN, `--feature kat`), " + nodeMemory
        + " of memory per node (`--node-memory`), every node's link shaped to " + link
        + " each way";
  }

  @Override
  public long workerBytesSent() throws IOException {
    return cluster.linkBytes().values().stream().mapToLong(LinkBytes::sent).sum();
  }

  @Override
  public void close() throws IOException {
    try {
      if (fs != null) {
        fs.close();
      }
    } finally {
      cluster.close();
    }
  }
}
