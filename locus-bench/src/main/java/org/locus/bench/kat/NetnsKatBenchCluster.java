package org.locus.bench.kat;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.run.LinkBytes;
import org.locus.bench.run.NetnsBenchClusters;
import org.locus.bench.run.RunningNetnsCluster;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DistBundle;
import org.locus.netns.NetnsClusterProcess;
import org.locus.netns.NetnsClusterSpec;
import org.locus.netns.Rate;
import org.locus.netns.Size;

/**
 * {@link KatBenchCluster} on a netns cluster: brought up and down by the same
 * {@link NetnsClusterProcess} as {@code locus cluster up --netns} (stock daemons, site files,
 * KAT's feature keys, the dist bundle), every node's link shaped to {@code link}; the wire bytes
 * are the nodes' veth counters.
 */
final class NetnsKatBenchCluster implements KatBenchCluster {
  private final ClusterDirectory dir;
  private final int nodes;
  private final String link;
  private final String nodeMemory;
  private final PrintStream err;
  private final Configuration conf;
  /** The same cluster seen by the bench runner: its workers' link counters. */
  private final RunningNetnsCluster links;
  private DistributedFileSystem fs;

  /**
   * @param katKeys KAT's feature key set
   * @param home the Locus checkout the dist bundle is written from
   * @param err where the cluster's start is reported
   */
  NetnsKatBenchCluster(File dir, int nodes, String link, String nodeMemory, long blockBytes,
      Configuration katKeys, File home, PrintStream err) throws Exception {
    this.dir = new ClusterDirectory(dir);
    this.nodes = nodes;
    this.link = link;
    this.nodeMemory = nodeMemory;
    this.err = err;
    Map<String, String> keys = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : katKeys) {
      keys.put(e.getKey(), katKeys.getRaw(e.getKey()));
    }
    keys.put("dfs.blocksize", Long.toString(blockBytes));
    keys.put("dfs.replication", "2");
    NetnsClusterSpec spec = NetnsClusterSpec.builder(nodes,
            DistBundle.libDir(new ClusterLayout(this.dir.root()).distDir()))
        .yarn(true)
        .link(Rate.linkBitsPerSecond("link", link))
        .nodeMemory(Size.bytes("node-memory", nodeMemory))
        .diskSize(2L << 30)
        .keys(keys)
        .build();
    try {
      NetnsClusterProcess.start(this.dir, spec, home, err);
    } catch (Exception e) {
      down();
      throw new IOException("the netns cluster for the bench did not start (" + e.getMessage()
          + "); see " + new File(dir, "logs"), e);
    }
    this.conf = NetnsBenchClusters.clientConfiguration(this.dir);
    this.links = new RunningNetnsCluster(conf, this.dir.root(), nodes);
  }

  @Override
  public Configuration conf() {
    return conf;
  }

  @Override
  public synchronized DistributedFileSystem fs() throws IOException {
    if (fs == null) {
      fs = (DistributedFileSystem) FileSystem.newInstance(conf);
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
    return links.linkBytes().values().stream().mapToLong(LinkBytes::sent).sum();
  }

  @Override
  public void close() throws IOException {
    try {
      if (fs != null) {
        fs.close();
      }
    } finally {
      down();
    }
  }

  /** Stops the cluster; its report goes to {@code err} only when the stop fails. */
  private void down() {
    NetnsBenchClusters.stopQuietly(dir, err);
  }
}
