package org.locus.boost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Predicate;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.kit.LocusMiniCluster;

/**
 * Seed 001 §4.3's failure case on an embedded 4-node cluster (DISK + NVDIMM volumes each, the
 * feature's keys): the node holding a block's REPLICATED replica is lost, the remaining DISK
 * replica serves reads, HDFS re-replicates onto REPLICATED storage elsewhere, and when the node
 * comes back the excess replica removed is a REPLICATED one, so the block ends as it began:
 * one REPLICATED replica and one DISK replica, 3 copies. Fast failure detection (1 s
 * heartbeats, dead after about 12 s). About 40 s.
 */
class SuperlocalNodeLossTest {
  private static LocusMiniCluster cluster;
  private static SuperlocalPaths paths;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = BoostTestClusters.fourNodes("node-loss")
        .setAll(BoostTestClusters.featureKeys())
        .set("dfs.heartbeat.interval", "1")
        .set("dfs.namenode.heartbeat.recheck-interval", "1000")
        .set("dfs.namenode.redundancy.interval.seconds", "1")
        .start();
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
  void aLostReplicatedReplicaIsRebuiltAndItsReturnLeavesOneReplicatedAndOneDiskReplica()
      throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path dir = BoostTestClusters.taggedDirectory(fs, paths, "/boost/loss");
    Path file = new Path(dir, "part-0");
    byte[] bytes = BoostTestClusters.writeRandom(fs, file, BoostTestClusters.BLOCK, 12);
    BlockCopies before =
        await(file, "one REPLICATED and one DISK replica", SuperlocalNodeLossTest::asPlaced);
    String lost = before.replicas().stream()
        .filter(r -> r.type() == StorageType.NVDIMM).findFirst().orElseThrow().host();

    MiniDFSCluster dfs = cluster.getDfsCluster();
    MiniDFSCluster.DataNodeProperties stopped = dfs.stopDataNode(hostAddress(lost));
    assertArrayEquals(bytes, read(fs, file), "read while " + lost + " is down");
    BlockCopies rebuilt = await(file, "re-replicated without " + lost,
        b -> asPlaced(b) && b.replicas().stream().noneMatch(r -> r.host().equals(lost)));
    assertEquals(3, rebuilt.copies(), rebuilt.toString());
    assertTrue(fsck(dir).contains("is HEALTHY"), fsck(dir));

    assertTrue(dfs.restartDataNode(stopped, true), "restart " + lost);
    dfs.waitActive();
    // Its report adds a second REPLICATED replica; the NameNode deletes one excess replica,
    // which must be REPLICATED (stock ALL_NVDIMM would delete the DISK one).
    BlockCopies after = await(file, "excess replica removed", b -> b.replicas().size() == 2);
    assertEquals(1, after.superlocalReplicas(), after.toString());
    assertEquals(3, after.copies(), after.toString());
    assertEquals(2, after.hosts(), after.toString());
    assertArrayEquals(bytes, read(fs, file));
    assertTrue(fsck(dir).contains("is HEALTHY"), fsck(dir));
  }

  private static boolean asPlaced(BlockCopies block) {
    return block.replicas().size() == 2 && block.superlocalReplicas() == 1
        && block.hosts() == 2;
  }

  private static BlockCopies await(Path file, String what, Predicate<BlockCopies> done)
      throws Exception {
    long deadline = System.currentTimeMillis() + 90_000;
    BlockCopies block;
    while (!done.test(block = onlyBlock(file))) {
      assertTrue(System.currentTimeMillis() < deadline, "not " + what + ": " + block);
      Thread.sleep(250);
    }
    return block;
  }

  private static BlockCopies onlyBlock(Path file) throws Exception {
    List<BlockCopies> blocks = paths.blocks(file);
    assertEquals(1, blocks.size(), blocks.toString());
    return blocks.get(0);
  }

  private static String hostAddress(String host) {
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      if (dn.getDatanodeId().getHostName().equals(host)
          || dn.getDatanodeId().getIpAddr().equals(host)) {
        return dn.getDatanodeId().getXferAddr();
      }
    }
    throw new AssertionError("no DataNode on " + host);
  }

  private static byte[] read(DistributedFileSystem fs, Path file) throws Exception {
    byte[] read = new byte[(int) fs.getFileStatus(file).getLen()];
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(0, read);
    }
    return read;
  }

  private static String fsck(Path path) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new DFSck(cluster.getConfiguration(), new PrintStream(out, true, StandardCharsets.UTF_8))
        .run(new String[] {path.toString()});
    return out.toString(StandardCharsets.UTF_8);
  }
}
