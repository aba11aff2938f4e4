package org.locus.bench.boost;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.run.ClusterRecipe;
import org.locus.bench.run.ForwardingBenchCluster;
import org.locus.bench.run.NetnsCluster;
import org.locus.boost.BoostConfigKeys;
import org.locus.boost.SuperlocalPaths;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.boost.scheduling.SuperlocalJobs;

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
final class BoostBenchCluster extends ForwardingBenchCluster {
  static final String HDFS = "hdfs";
  static final String BOOST = "boost";

  BoostBenchCluster(String label, File dir, BoostBenchRequest request, PrintStream err)
      throws Exception {
    this(label.equals(BOOST), NetnsCluster.start(dir, recipe(label.equals(BOOST), request),
        label, request.home(), err), request);
  }

  private BoostBenchCluster(boolean boost, NetnsCluster cluster, BoostBenchRequest request)
      throws IOException {
    super(cluster);
    Configuration client = cluster.conf();
    try {
      if (boost) {
        SuperlocalLayout layout = SuperlocalLayout.from(client);
        client.setInt("dfs.replication", layout.replicationFor(request.boostCopies()));
        try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(client)) {
          fs.mkdirs(root());
          new SuperlocalPaths(fs, layout).tag(root(), request.boostCopies());
        }
        SuperlocalJobs.configure(client);
      } else {
        client.setInt("dfs.replication", request.copies());
      }
      request.taskMemory().applyTo(client);
      request.jobKeys().forEach(client::set);
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /**
   * @return a layout's nodes: every device throttled to the bench's rate, three DISK volumes
   *     for HDFS, one DISK and the REPLICATED volume with BoostDFS's keys for BoostDFS
   */
  static ClusterRecipe recipe(boolean boost, BoostBenchRequest request) {
    ClusterRecipe.Builder recipe = ClusterRecipe.builder(request.nodes())
        .diskRate(request.diskRate())
        .diskModel(request.diskModel())
        .nodeMemory(request.nodeMemoryBytes())
        .diskSize(request.diskBytes());
    if (boost) {
      recipe.volumes(List.of(StorageType.DISK))
          .replicatedVolume(StorageType.parseStorageType(request.boostKeys().getOrDefault(
              BoostConfigKeys.REPLICATED_STORAGE_TYPE,
              BoostConfigKeys.REPLICATED_STORAGE_TYPE_DEFAULT.name())))
          .setAll(request.boostKeys());
    } else {
      recipe.volumes(List.of(StorageType.DISK, StorageType.DISK, StorageType.DISK));
    }
    return recipe.set("dfs.blocksize", Long.toString(request.blockBytes())).build();
  }
}
