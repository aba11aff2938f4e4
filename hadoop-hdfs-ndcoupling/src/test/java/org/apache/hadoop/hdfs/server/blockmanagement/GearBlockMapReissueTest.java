package org.apache.hadoop.hdfs.server.blockmanagement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.net.InetSocketAddress;
import java.util.List;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.kit.LocusMiniCluster;
import org.locus.ndcoupling.gear.UpdateLogEntry;

/**
 * A gear-up's re-issue of a move that has not arrived ({@link GearBlockMap#again}), on an
 * embedded 3-node cluster: from its source while that still holds the block; from another live
 * holder once the source has lost its replica (a block meant for two returning nodes, whose
 * second stand-in the NameNode chose as the excess replica when the first target got its
 * copy: an eight-node gear-up stalled on exactly that); nothing once the block is on its
 * target or deleted.
 */
class GearBlockMapReissueTest {
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;
  private static FSNamesystem namesystem;
  private static GearBlockMap map;
  private static DatanodeDescriptor a;
  private static DatanodeDescriptor b;
  private static DatanodeDescriptor c;

  @BeforeAll
  static void start() throws Exception {
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/gear-block-map-reissue"))
        .nodes(3)
        .set("dfs.replication", "1")
        .set("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20")
        .start();
    fs = cluster.getFileSystem();
    namesystem = cluster.getDfsCluster().getNamesystem();
    map = new GearBlockMap(namesystem);
    List<DataNode> nodes = cluster.getDfsCluster().getDataNodes();
    a = descriptor(nodes.get(0));
    b = descriptor(nodes.get(1));
    c = descriptor(nodes.get(2));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aMoveWhoseSourceLostItsReplicaComesFromAnotherLiveHolder() throws Exception {
    BlockInfo block = writeOnA(new Path("/reissue/lost-source"));
    GearBlockMap.Work stale = work(block, b, c);
    GearBlockMap.Work move = map.again(stale);
    assertNotNull(move, "the block is on A and not on C: it must move");
    assertEquals(a, move.source(), "B never held it; A does");
    assertEquals(c, move.target());
    assertEquals(block.getBlockId(), move.block().getBlockId());
  }

  @Test
  void aMoveWhoseSourceStillHoldsTheBlockKeepsItsSource() throws Exception {
    BlockInfo block = writeOnA(new Path("/reissue/kept-source"));
    GearBlockMap.Work move = map.again(work(block, a, b));
    assertNotNull(move);
    assertEquals(a, move.source());
    assertEquals(b, move.target());
  }

  @Test
  void nothingIsIssuedForABlockOnItsTargetOrDeleted() throws Exception {
    Path path = new Path("/reissue/done");
    BlockInfo block = writeOnA(path);
    assertNull(map.again(work(block, b, a)), "A, the target, holds it already");
    fs.delete(path, false);
    assertNull(map.again(work(block, a, c)), "the block's file is deleted");
  }

  private static GearBlockMap.Work work(BlockInfo block, DatanodeDescriptor source,
      DatanodeDescriptor target) {
    UpdateLogEntry entry = new UpdateLogEntry(1, block.getBlockCollectionId(), "/reissue",
        source.getHostName(), target.getHostName(), 0);
    return new GearBlockMap.Work(entry, block, source, target);
  }

  /** @return the only block of a new one-replica file written onto node A */
  private static BlockInfo writeOnA(Path path) throws Exception {
    InetSocketAddress[] favored = {cluster.getDfsCluster().getDataNodes().get(0)
        .getXferAddress()};
    try (FSDataOutputStream out = fs.create(path, FsPermission.getFileDefault(), true, 4096,
        (short) 1, 1 << 20, null, favored)) {
      out.write(new byte[4096]);
    }
    DFSTestUtil.waitReplication(fs, path, (short) 1);
    BlockInfo block = namesystem.getBlockManager().getStoredBlock(
        DFSTestUtil.getFirstBlock(fs, path).getLocalBlock());
    assertEquals(a, map.liveHolder(block), path + " was written onto A");
    return block;
  }

  private static DatanodeDescriptor descriptor(DataNode dn) throws Exception {
    return namesystem.getBlockManager().getDatanodeManager()
        .getDatanode(dn.getDatanodeId());
  }
}
