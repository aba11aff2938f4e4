package org.locus.bench.run;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Properties;

import org.apache.hadoop.conf.Configuration;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DistBundle;
import org.locus.netns.NetnsClusterProcess;

/**
 * A {@link ClusterRecipe} run as a netns cluster the bench starts and stops: stock daemons as
 * processes with the dist bundle, started in the background exactly as {@code locus cluster up
 * --netns} starts one ({@link NetnsClusterProcess}); its links counted and its cached pages
 * evicted as on any running netns cluster ({@link RunningNetnsCluster}). Closing it stops every
 * process and frees every host resource; a stop that fails is reported, not thrown. Its
 * {@link #conf()} is one object for its life: a feature's set-up may add client keys to it.
 */
public final class NetnsCluster extends ForwardingBenchCluster {
  private final ClusterDirectory dir;
  private final Properties startState;
  private final PrintStream err;

  private NetnsCluster(ClusterDirectory dir, Properties startState, RunningNetnsCluster running,
      PrintStream err) {
    super(running);
    this.dir = dir;
    this.startState = startState;
    this.err = err;
  }

  /**
   * @param dir the cluster's directory
   * @param what what the cluster is for, for the error when it does not start
   *     ("layout hybrid", "feature set kat")
   * @param home the Locus checkout the dist bundle is written from
   * @param err where the cluster's start is reported
   * @return the cluster, up and serving; when it does not start, whatever did start is stopped
   */
  public static NetnsCluster start(File dir, ClusterRecipe recipe, String what, File home,
      PrintStream err) throws IOException {
    ClusterDirectory cluster = new ClusterDirectory(dir.getAbsoluteFile());
    Properties state;
    try {
      state = NetnsClusterProcess.start(cluster,
          recipe.netnsSpec(DistBundle.libDir(new ClusterLayout(cluster.root()).distDir())),
          home, err);
    } catch (Exception e) {
      NetnsBenchClusters.stopQuietly(cluster, err);
      throw new IOException("the netns cluster for " + what + " did not start ("
          + e.getMessage() + "); see " + new File(cluster.root(), "logs"), e);
    }
    Configuration conf = NetnsBenchClusters.clientConfiguration(cluster);
    return new NetnsCluster(cluster, state, new RunningNetnsCluster(conf, cluster.root(),
        recipe.nodes()), err);
  }

  /**
   * {@code bench run --cluster netns}: one cluster per feature set, as {@code cluster up --netns
   * --feature NAME} starts one, every run recording the bytes each node's link carried.
   *
   * @param linkBitsPerSecond every node's link rate (0: unshaped)
   * @param home the Locus checkout the dist bundle is written from
   * @param err where each cluster's start is reported
   * @return a factory of {@code nodes}-node clusters under {@code dir/<feature>}
   */
  public static Factory factory(File dir, int nodes, long linkBitsPerSecond,
      long nodeMemoryBytes, File home, PrintStream err) {
    return (feature, keys) -> start(new File(dir, feature), ClusterRecipe.featureSet(nodes, keys)
        .link(linkBitsPerSecond).nodeMemory(nodeMemoryBytes).build(), "feature set " + feature,
        home, err);
  }

  /** @return the cluster's directory: its state file, site files, logs and ledger */
  public ClusterDirectory directory() {
    return dir;
  }

  /** @return the state the cluster reported when it came up (its nodes' devices among it) */
  public Properties startState() {
    return startState;
  }

  @Override
  public void close() {
    NetnsBenchClusters.stopQuietly(dir, err);
  }
}
