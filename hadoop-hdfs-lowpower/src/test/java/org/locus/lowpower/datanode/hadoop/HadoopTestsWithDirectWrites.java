package org.locus.lowpower.datanode.hadoop;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.locus.lowpower.LowpowerConfigKeys;

/**
 * Puts {@code conf/features/lowpower.xml} (on the test classpath as {@code lowpower.xml}) among
 * Hadoop's default configuration resources, after {@code hdfs-default.xml}, so every
 * {@code Configuration} a Hadoop test builds carries the feature's keys: its MiniDFSCluster's
 * DataNodes write with O_DIRECT. A test that sets {@code dfs.datanode.fsdataset.factory} itself
 * (simulated datasets) keeps its own value. Each test class runs in a JVM of its own (the
 * build's surefire setting), so the resources reach no other class.
 */
final class HadoopTestsWithDirectWrites {
  private HadoopTestsWithDirectWrites() {
  }

  static void install() {
    installTestSite();
    Configuration.addDefaultResource("lowpower.xml");
    Configuration probe = new HdfsConfiguration();
    if (!LowpowerConfigKeys.DATASET_FACTORY_CLASS.equals(
        probe.get("dfs.datanode.fsdataset.factory"))
        || !probe.getBoolean(LowpowerConfigKeys.DIRECT_WRITES, false)) {
      throw new IllegalStateException("lowpower.xml is not in effect for Hadoop's tests");
    }
  }

  /**
   * Only what Hadoop's tests expect of their own hdfs-site.xml; no Locus key. HDFS's defaults are
   * registered first: a resource added later overrides them.
   */
  static void installTestSite() {
    HdfsConfiguration.init();
    Configuration.addDefaultResource("hadoop-hdfs-test-site.xml");
    if (new HdfsConfiguration().getLong("dfs.namenode.fs-limits.min-block-size", -1) != 0) {
      throw new IllegalStateException("hadoop-hdfs-test-site.xml is not in effect");
    }
  }
}
