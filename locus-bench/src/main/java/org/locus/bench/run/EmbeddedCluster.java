package org.locus.bench.run;

import java.io.File;
import java.io.IOException;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.locus.kit.LocusMiniCluster;

/**
 * A {@link ClusterRecipe} run as the kit's multi-host mini cluster: every node with its own
 * loopback address, HDFS and (as the recipe says) YARN in this JVM. It takes the recipe's nodes,
 * volumes, YARN and keys; links are loopback, disks are directories and every node shares this
 * JVM's memory and CPUs, so the recipe's rates, memory, CPUs and disk size do not apply, and a
 * replicated (MorphStore) volume is refused. {@code --cluster embedded} starts one per feature
 * set.
 */
public final class EmbeddedCluster implements BenchCluster {
  /** Container memory of each NodeManager: room for a smoke-size job's maps on every node. */
  static final int NODE_MANAGER_MEMORY_MB = 3072;

  private final LocusMiniCluster cluster;

  private EmbeddedCluster(LocusMiniCluster cluster) {
    this.cluster = cluster;
  }

  /**
   * @param dir the cluster's directory (name node, data node volumes, logs)
   * @return the cluster, up and serving
   * @throws IllegalArgumentException when the recipe asks for a replicated volume
   */
  public static EmbeddedCluster start(File dir, ClusterRecipe recipe) throws IOException {
    if (recipe.replicatedVolume() != null) {
      throw new IllegalArgumentException("the embedded cluster has no MorphStore volumes; a"
          + " recipe with a replicated " + recipe.replicatedVolume() + " volume needs a netns"
          + " cluster");
    }
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(dir)
        .nodes(recipe.nodes())
        .volumes(recipe.volumes().toArray(new StorageType[0]))
        .yarn(recipe.yarn())
        .nodeManagerMemoryMb(NODE_MANAGER_MEMORY_MB);
    recipe.keys().forEach(builder::set);
    return new EmbeddedCluster(builder.start());
  }

  /** @return a factory of {@code nodes}-node clusters kept under {@code dir/<feature>} */
  public static Factory factory(File dir, int nodes) {
    return (feature, keys) -> start(new File(dir, feature),
        ClusterRecipe.featureSet(nodes, keys).build());
  }

  /** @return the cluster's own HDFS client, closed with the cluster */
  public DistributedFileSystem fileSystem() throws IOException {
    return cluster.getFileSystem();
  }

  /** @return the cluster's DataNodes, in this JVM: what they publish here can be read */
  public List<DataNode> dataNodes() {
    return cluster.getDfsCluster().getDataNodes();
  }

  @Override
  public Configuration conf() {
    return cluster.getConfiguration();
  }

  @Override
  public void close() {
    cluster.close();
  }
}
