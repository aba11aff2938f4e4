package org.locus.kit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The embedded cluster's tuning: {@link SmallClusterTuning}, shared with the netns cluster,
 * plus what only a cluster in one JVM needs. The kit applies these first and the caller's own
 * keys on top, so a caller's setting wins.
 */
final class MiniClusterTuning {
  /** Task JVM heap: several task JVMs share the host's memory with the test's own JVM. */
  private static final int TASK_HEAP_MIB = 300;

  private MiniClusterTuning() {
  }

  static void apply(Configuration conf, int nodeManagerMemoryMb) {
    SmallClusterTuning.hdfs(conf);
    conf.set("dfs.namenode.reconstruction.pending.timeout-sec", "10");
    SmallClusterTuning.yarn(conf);
    // MiniYARNCluster gives each NodeManager this key's memory, whatever the stock NodeManager
    // key says.
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, nodeManagerMemoryMb);
    SmallClusterTuning.mapReduce(conf, TASK_HEAP_MIB, 2);
    conf.set("mapreduce.job.reduce.slowstart.completedmaps", "0.8");
  }
}
