package org.locus.bench.boost;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.run.BenchCluster;
import org.locus.bench.run.LinkBytes;
import org.locus.bench.run.NetnsBenchClusters;
import org.locus.bench.run.RunningNetnsCluster;
import org.locus.boost.BoostConfigKeys;
import org.locus.boost.SuperlocalPaths;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.boost.scheduling.SuperlocalJobs;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DistBundle;
import org.locus.netns.NetnsClusterProcess;
import org.locus.netns.NetnsClusterSpec;

/**
 * One layout of the BoostDFS bench on a netns cluster started for it (stock daemons, the dist
 * bundle, YARN), every node with three throttled devices:
 *
 * <ul>
 *   <li>{@code hdfs}: three DISK volumes, HDFS replication = copies;</li>
 *   <li>{@code boost}: one DISK volume and a REPLICATED volume (MorphStore, copies=2, over the
 *       other two devices); the bench root is SUPERLOCAL with {@link
 *       BoostBenchRequest#boostCopies()} copies (HDFS replication one less, one replica on
 *       REPLICATED storage), and every job runs under the Locus AM with superlocal map
 *       placement.</li>
 * </ul>
 *
 * At the same capacity both hold each block on the same number of devices; at the same
 * availability on the same number of nodes.
 */
final class BoostBenchCluster implements BenchCluster {
  static final String HDFS = "hdfs";
  static final String BOOST = "boost";
  private static final Path ROOT = new Path("/bench");

  private final ClusterDirectory dir;
  private final Configuration conf;
  private final RunningNetnsCluster links;
  private final PrintStream err;

  BoostBenchCluster(String label, File dir, BoostBenchRequest request, PrintStream err)
      throws Exception {
    this.dir = new ClusterDirectory(dir.getAbsoluteFile());
    this.err = err;
    boolean boost = label.equals(BOOST);
    Map<String, String> keys = new LinkedHashMap<>();
    if (boost) {
      keys.putAll(request.boostKeys());
    }
    keys.put("dfs.blocksize", Long.toString(request.blockBytes()));
    String replicatedType = request.boostKeys().getOrDefault(
        BoostConfigKeys.REPLICATED_STORAGE_TYPE,
        BoostConfigKeys.REPLICATED_STORAGE_TYPE_DEFAULT.name());
    long rate = request.diskRate();
    NetnsClusterSpec spec = NetnsClusterSpec.builder(request.nodes(),
            DistBundle.libDir(new ClusterLayout(this.dir.root()).distDir()))
        .yarn(true)
        .disk(rate, rate)
        .nodeMemory(request.nodeMemoryBytes())
        .diskSize(request.diskBytes())
        .volumes(boost ? List.of("DISK") : List.of("DISK", "DISK", "DISK"))
        .replicatedVolume(boost ? replicatedType : "")
        .keys(keys)
        .build();
    try {
      NetnsClusterProcess.start(this.dir, spec, request.home(), err);
    } catch (Exception e) {
      down();
      throw new IOException("the netns cluster for " + label + " did not start ("
          + e.getMessage() + "); see " + new File(dir, "logs"), e);
    }
    Configuration client = NetnsBenchClusters.clientConfiguration(this.dir);
    try {
      if (boost) {
        SuperlocalLayout layout = SuperlocalLayout.from(client);
        client.setInt("dfs.replication", layout.replicationFor(request.boostCopies()));
        try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(client)) {
          fs.mkdirs(ROOT);
          new SuperlocalPaths(fs, layout).tag(ROOT, request.boostCopies());
        }
        SuperlocalJobs.configure(client);
      } else {
        client.setInt("dfs.replication", request.copies());
      }
      request.taskMemory().applyTo(client);
      request.jobKeys().forEach(client::set);
    } catch (IOException | RuntimeException e) {
      down();
      throw e;
    }
    this.conf = client;
    this.links = new RunningNetnsCluster(conf, this.dir.root(), request.nodes());
  }

  @Override
  public Configuration conf() {
    return conf;
  }

  @Override
  public Path root() {
    return ROOT;
  }

  @Override
  public Map<String, LinkBytes> linkBytes() throws IOException {
    return links.linkBytes();
  }

  @Override
  public void evictCachedData() throws IOException {
    links.evictCachedData();
  }

  @Override
  public void close() {
    down();
  }

  private void down() {
    NetnsBenchClusters.stopQuietly(dir, err);
  }
}
