package org.locus.bench.run;

import java.io.File;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.locus.kit.LocusMiniCluster;

/**
 * {@code --cluster embedded}: the kit's multi-host mini cluster (4 nodes with their own
 * loopback addresses, HDFS and YARN in this JVM), started once per feature set with that set's
 * keys.
 */
public final class EmbeddedCluster implements BenchCluster {
  private final LocusMiniCluster cluster;

  private EmbeddedCluster(LocusMiniCluster cluster) {
    this.cluster = cluster;
  }

  /** @return a factory of {@code nodes}-node clusters kept under {@code dir/<feature>} */
  public static Factory factory(File dir, int nodes) {
    return (feature, keys) -> new EmbeddedCluster(LocusMiniCluster.builder(
        new File(dir, feature)).nodes(nodes).volumes(StorageType.DISK).yarn(true)
        .nodeManagerMemoryMb(3072).set("dfs.replication", "2").setAll(keys).start());
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
