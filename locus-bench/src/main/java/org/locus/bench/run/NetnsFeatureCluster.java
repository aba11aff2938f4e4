package org.locus.bench.run;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DistBundle;
import org.locus.netns.NetnsClusterProcess;
import org.locus.netns.NetnsClusterSpec;

/**
 * {@code bench run --cluster netns}: a netns cluster (stock daemons as processes, the dist
 * bundle, YARN, one DISK volume per node) started once per feature set with that set's keys,
 * exactly as {@code cluster up --netns --feature NAME} starts one, in {@code dir/<feature>};
 * every run records the bytes each node's link carried. Stopped when the feature set's runs
 * are done, also when one fails.
 */
public final class NetnsFeatureCluster implements BenchCluster {
  private final ClusterDirectory dir;
  private final RunningNetnsCluster running;
  private final PrintStream err;

  private NetnsFeatureCluster(ClusterDirectory dir, RunningNetnsCluster running,
      PrintStream err) {
    this.dir = dir;
    this.running = running;
    this.err = err;
  }

  /**
   * @param linkBitsPerSecond every node's link rate (0: unshaped)
   * @param home the Locus checkout the dist bundle is written from
   * @param err where each cluster's start is reported
   * @return a factory of {@code nodes}-node clusters under {@code dir/<feature>}
   */
  public static Factory factory(File dir, int nodes, long linkBitsPerSecond,
      long nodeMemoryBytes, File home, PrintStream err) {
    return (feature, keys) -> {
      ClusterDirectory cluster = new ClusterDirectory(new File(dir, feature).getAbsoluteFile());
      Map<String, String> all = new LinkedHashMap<>();
      // As the embedded runner's clusters: two replicas, so a 4-node cluster has room to place.
      all.put("dfs.replication", "2");
      for (Map.Entry<String, String> e : keys) {
        all.put(e.getKey(), keys.getRaw(e.getKey()));
      }
      NetnsClusterSpec spec = NetnsClusterSpec.builder(nodes,
              DistBundle.libDir(new ClusterLayout(cluster.root()).distDir()))
          .yarn(true)
          .link(linkBitsPerSecond)
          .nodeMemory(nodeMemoryBytes)
          .diskSize(2L << 30)
          .keys(all)
          .build();
      try {
        NetnsClusterProcess.start(cluster, spec, home, err);
      } catch (Exception e) {
        NetnsBenchClusters.stopQuietly(cluster, err);
        throw new IOException("the netns cluster for feature set " + feature + " did not start ("
            + e.getMessage() + "); see " + new File(cluster.root(), "logs"), e);
      }
      Configuration conf = NetnsBenchClusters.clientConfiguration(cluster);
      return new NetnsFeatureCluster(cluster,
          new RunningNetnsCluster(conf, cluster.root(), nodes), err);
    };
  }

  @Override
  public Configuration conf() {
    return running.conf();
  }

  @Override
  public Map<String, LinkBytes> linkBytes() throws IOException {
    return running.linkBytes();
  }

  @Override
  public void evictCachedData() throws IOException {
    running.evictCachedData();
  }

  @Override
  public void close() {
    NetnsBenchClusters.stopQuietly(dir, err);
  }
}
