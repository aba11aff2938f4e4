package org.locus.bench.kat;

import java.io.Closeable;
import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.run.ClusterRecipe;

/**
 * The cluster the KAT bench runs on: the embedded one (one JVM, loopback hosts, a free
 * network) or a netns cluster (stock daemons as processes, shaped links).
 */
interface KatBenchCluster extends Closeable {
  /** @return client configuration with KAT's feature keys in force on the cluster */
  Configuration conf();

  DistributedFileSystem fs() throws IOException;

  /** @return one sentence for the report: what the cluster is and what its links are */
  String describe();

  /**
   * @return bytes sent so far by all worker nodes on their links (the wire), or -1 where the
   *     network is loopback inside one process and nothing can be counted
   */
  long workerBytesSent() throws IOException;

  /**
   * @param katKeys KAT's feature key set
   * @return the bench's nodes on either kind of cluster: one DISK volume each, two replicas,
   *     KAT's keys and the bench's block size
   */
  static ClusterRecipe.Builder recipe(int nodes, long blockBytes, Configuration katKeys) {
    return ClusterRecipe.builder(nodes).setAll(katKeys)
        .set("dfs.blocksize", Long.toString(blockBytes))
        .set("dfs.replication", "2");
  }
}
