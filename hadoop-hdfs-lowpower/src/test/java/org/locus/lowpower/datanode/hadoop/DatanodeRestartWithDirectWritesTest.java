package org.locus.lowpower.datanode.hadoop;

import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.TestDatanodeRestart;

/** Hadoop 3.5.0's own {@code TestDatanodeRestart} (rbw replicas across restarts) with O_DIRECT. */
class DatanodeRestartWithDirectWritesTest extends TestDatanodeRestart {
  static {
    HadoopTestsWithDirectWrites.install();
  }
}
