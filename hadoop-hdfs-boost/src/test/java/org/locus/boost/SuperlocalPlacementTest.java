package org.locus.boost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.kit.LocusMiniCluster;

/**
 * SUPERLOCAL placement with the feature's keys on an embedded 4-node cluster whose nodes each
 * have a DISK and an NVDIMM (REPLICATED) volume. One cluster, about 15 s. The NameNode compares
 * all four nodes for each REPLICATED replica written from outside the cluster (the test JVM's
 * client), so a directory's counts stay within one of each other whatever the other tests wrote.
 */
class SuperlocalPlacementTest {
  private static LocusMiniCluster cluster;
  private static SuperlocalPaths paths;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = BoostTestClusters.fourNodes("superlocal")
        .setAll(BoostTestClusters.featureKeys())
        .set(BoostConfigKeys.REPLICATED_CHOICES, "4").start();
    paths = new SuperlocalPaths(cluster.getFileSystem(),
        SuperlocalLayout.from(cluster.getConfiguration()));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void taggedPathGetsExactlyOneReplicatedReplicaAndTheRestOnDiskElsewhere() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path dir = BoostTestClusters.taggedDirectory(fs, paths, "/boost/three-copies");
    BoostTestClusters.write(fs, new Path(dir, "part-0"), 4);
    List<BlockCopies> blocks = paths.blocks(dir);
    assertEquals(4, blocks.size());
    for (BlockCopies block : blocks) {
      assertEquals(1, block.superlocalReplicas(), block.toString());
      assertEquals(2, block.replicas().size(), block.toString());
      assertEquals(2, block.hosts(), block.toString());
      assertEquals(3, block.copies(), block.toString());
    }
  }

  @Test
  void fourCopiesAreOneReplicatedReplicaAndTwoDiskReplicasOnThreeNodes() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path dir = new Path("/boost/four-copies");
    fs.mkdirs(dir);
    BoostTestClusters.write(fs, new Path(dir, "part-0"), 2);
    paths.tag(dir, 4);
    Path file = new Path(dir, "part-1");
    try (var out = fs.create(file, (short) 3)) {
      out.write(new byte[2 * BoostTestClusters.BLOCK]);
    }
    for (BlockCopies block : paths.blocks(file)) {
      assertEquals(1, block.superlocalReplicas(), block.toString());
      assertEquals(3, block.hosts(), block.toString());
      assertEquals(4, block.copies(), block.toString());
    }
  }

  @Test
  void setPolicyLowersReplicationOfExistingFilesToCopiesMinusOne() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path dir = new Path("/boost/existing");
    fs.mkdirs(dir);
    Path file = new Path(dir, "old");
    try (var out = fs.create(file, (short) 3)) {
      out.write(new byte[BoostTestClusters.BLOCK]);
    }
    paths.tag(dir, 3);
    assertEquals(2, fs.getFileStatus(file).getReplication());
    assertEquals(3, paths.recordedCopies(dir));
    assertTrue(paths.isTagged(file));
  }

  @Test
  void aDirectorysReplicatedReplicasWrittenFromOutsideTheClusterAreSpreadEvenly()
      throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path dir = BoostTestClusters.taggedDirectory(fs, paths, "/boost/spread");
    BoostTestClusters.write(fs, new Path(dir, "part-0"), 9);
    for (int k = 1; k <= 3; k++) {
      BoostTestClusters.write(fs, new Path(dir, "part-" + k), 1);
    }
    Map<String, Integer> perNode = new TreeMap<>();
    cluster.nodes().forEach(node -> perNode.put(node.host(), 0));
    for (BlockCopies block : paths.blocks(dir)) {
      for (BlockCopies.Replica replica : block.replicas()) {
        if (replica.type() == StorageType.NVDIMM) {
          perNode.merge(replica.host(), 1, Integer::sum);
        }
      }
    }
    int most = Collections.max(perNode.values());
    int least = Collections.min(perNode.values());
    assertTrue(most - least <= 1, "REPLICATED replicas per node: " + perNode);
    assertTrue(least >= 3, "REPLICATED replicas per node: " + perNode);
  }

  @Test
  void untaggedPathKeepsStockPlacementOnDisk() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path file = new Path("/plain/data");
    BoostTestClusters.write(fs, file, 2);
    for (BlockCopies block : paths.blocks(file)) {
      for (BlockCopies.Replica replica : block.replicas()) {
        assertEquals(StorageType.DISK, replica.type(), block.toString());
      }
    }
  }

  @Test
  void fsckFindsTaggedDataHealthy() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path dir = BoostTestClusters.taggedDirectory(fs, paths, "/boost/fsck");
    BoostTestClusters.write(fs, new Path(dir, "part-0"), 3);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = new DFSck(cluster.getConfiguration(),
        new PrintStream(out, true, StandardCharsets.UTF_8)).run(new String[] {dir.toString()});
    String report = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, report);
    assertTrue(report.contains("is HEALTHY"), report);
  }
}
