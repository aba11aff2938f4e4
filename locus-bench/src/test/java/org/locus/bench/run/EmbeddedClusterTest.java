package org.locus.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A recipe started on the kit's embedded cluster: its nodes, volumes and keys, nothing else. */
class EmbeddedClusterTest {
  @Test
  void startsTheRecipesNodesWithItsVolumesAndKeys(@TempDir File dir) throws Exception {
    ClusterRecipe recipe = ClusterRecipe.builder(2)
        .volumes(List.of(StorageType.DISK, StorageType.ARCHIVE))
        .set("dfs.replication", "2").set("dfs.blocksize", "2097152").build();
    try (BenchCluster cluster = EmbeddedCluster.start(dir, recipe);
        DistributedFileSystem fs =
            (DistributedFileSystem) FileSystem.newInstance(cluster.conf())) {
      Configuration conf = cluster.conf();
      assertEquals("2097152", conf.get("dfs.blocksize"));
      assertEquals("2", conf.get("dfs.replication"));
      DatanodeStorageReport[] live = fs.getClient().getDatanodeStorageReport(
          DatanodeReportType.LIVE);
      assertEquals(2, live.length);
      for (DatanodeStorageReport node : live) {
        List<StorageType> types = new ArrayList<>();
        for (StorageReport storage : node.getStorageReports()) {
          types.add(storage.getStorage().getStorageType());
        }
        types.sort(null);
        assertEquals(List.of(StorageType.DISK, StorageType.ARCHIVE), types,
            node.getDatanodeInfo().getXferAddr());
      }
    }
  }

  @Test
  void aRecipeWithoutYarnStartsHdfsAlone(@TempDir File dir) throws Exception {
    try (EmbeddedCluster cluster = EmbeddedCluster.start(dir,
        ClusterRecipe.builder(2).yarn(false).build())) {
      assertEquals(2, cluster.dataNodes().size());
      assertEquals(YarnConfiguration.DEFAULT_RM_ADDRESS,
          cluster.conf().get(YarnConfiguration.RM_ADDRESS, YarnConfiguration.DEFAULT_RM_ADDRESS));
    }
  }

  @Test
  void aReplicatedVolumeIsRefusedNamingTheClusterThatHasOne(@TempDir File dir) {
    ClusterRecipe recipe = ClusterRecipe.builder(2).replicatedVolume(StorageType.NVDIMM).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> EmbeddedCluster.start(dir, recipe));
    assertTrue(e.getMessage().contains("replicated NVDIMM volume needs a netns cluster"),
        e.getMessage());
  }
}
