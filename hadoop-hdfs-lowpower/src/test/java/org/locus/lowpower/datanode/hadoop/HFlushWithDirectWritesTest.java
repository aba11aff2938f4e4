package org.locus.lowpower.datanode.hadoop;

import org.apache.hadoop.hdfs.TestHFlush;

/** Hadoop 3.5.0's own {@code TestHFlush} (hadoop-hdfs tests jar) on DataNodes writing with O_DIRECT. */
class HFlushWithDirectWritesTest extends TestHFlush {
  static {
    HadoopTestsWithDirectWrites.install();
  }
}
