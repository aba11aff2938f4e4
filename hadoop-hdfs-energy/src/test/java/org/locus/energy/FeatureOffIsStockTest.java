package org.locus.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.util.Arrays;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.energy.datanode.EnergyMetricsInfo;
import org.locus.kit.LocusMiniCluster;

/**
 * Without the feature's keys a cluster with our jar on its class path and the same
 * [DISK]+[ARCHIVE] volumes is stock Hadoop: HOT placement (every replica on DISK), the stock
 * topology, no power manager. The write off-loading dataset factory installed with
 * off-loading off hands the DataNodes Hadoop's own dataset.
 */
class FeatureOffIsStockTest {
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void startStockCluster() throws Exception {
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/feature-off"))
        .nodes(3)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .set("dfs.blocksize", "262144")
        .set("dfs.replication", "3")
        .set("dfs.datanode.fsdataset.factory", EnergyConfigKeys.OFFLOADING_FACTORY)
        .start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void everyReplicaIsOnDiskAsWithStockHotPlacement() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path file = new Path("/stock/data");
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(new byte[3 * 262144]);
    }
    // close() returns once the NameNode counts one replica; the others' reports may still come
    DFSTestUtil.waitReplication(fs, file, (short) 3);
    FileStatus status = fs.getFileStatus(file);
    BlockLocation[] blocks = fs.getFileBlockLocations(status, 0, status.getLen());
    assertEquals(3, blocks.length);
    for (BlockLocation block : blocks) {
      StorageType[] types = block.getStorageTypes();
      assertEquals(Arrays.asList(StorageType.DISK, StorageType.DISK, StorageType.DISK),
          Arrays.asList(types), block.toString());
    }
  }

  @Test
  void theNameNodeUsesTheStockTopologyAndNoDataNodeRunsThePowerManager() {
    assertEquals(DFSNetworkTopology.class, cluster.getDfsCluster().getNamesystem()
        .getBlockManager().getDatanodeManager().getNetworkTopology().getClass());
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      assertNull(DefaultMetricsSystem.instance().getSource(
          EnergyMetricsInfo.sourceName(dn.getDisplayName())));
    }
  }

  @Test
  void theOffloadingFactoryWithOffloadingOffBuildsHadoopsOwnDataset() {
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      // FsDatasetImpl is package-private: compare by name
      assertEquals("org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl",
          dn.getFSDataset().getClass().getName());
    }
  }
}
