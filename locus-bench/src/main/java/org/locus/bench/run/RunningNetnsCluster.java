package org.locus.bench.run;

import java.io.File;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.locus.netns.ClusterLayout;
import org.locus.netns.NamespaceNetwork;
import org.locus.netns.NodePageCache;
import org.locus.netns.ResourceLedger;

/**
 * A netns cluster already up ({@code locus cluster up --netns}), which the bench submits to and
 * leaves running. Each worker's link is its veth, whose counters give the bytes a run put on the
 * wire per node.
 */
public final class RunningNetnsCluster implements BenchCluster {
  private final Configuration conf;
  private final int nodes;
  private final NamespaceNetwork network;
  private final ClusterLayout layout;

  /**
   * @param conf the cluster's client configuration
   * @param dir the cluster's directory
   * @param nodes its worker nodes
   */
  public RunningNetnsCluster(Configuration conf, File dir, int nodes) {
    this.conf = conf;
    this.nodes = nodes;
    this.layout = new ClusterLayout(dir);
    this.network = new NamespaceNetwork(layout, new ResourceLedger(layout.ledgerFile()));
  }

  @Override
  public Configuration conf() {
    return conf;
  }

  @Override
  public Map<String, LinkBytes> linkBytes() throws IOException {
    Map<String, LinkBytes> bytes = new LinkedHashMap<>();
    for (String node : ClusterLayout.workers(nodes)) {
      long[] counters = network.counters(node);
      bytes.put(node, new LinkBytes(counters[0], counters[1]));
    }
    return bytes;
  }

  /** Evicts every worker's cached pages of the files on its disks ({@link NodePageCache}). */
  @Override
  public void evictCachedData() throws IOException {
    for (String node : ClusterLayout.workers(nodes)) {
      NodePageCache.evict(NodePageCache.mounts(layout, node));
    }
  }

  @Override
  public void close() {
  }
}
