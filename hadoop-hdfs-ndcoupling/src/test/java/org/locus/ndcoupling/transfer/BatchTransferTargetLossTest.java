package org.locus.ndcoupling.transfer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.blockOf;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.locations;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.metrics;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.pushesOf;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.service;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.uuids;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.writeOn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.kit.LocusMiniCluster;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * A target DataNode that dies while a batch streams to it loses no block: the blocks it had
 * not finalized fail and stay on the source, those it had are re-replicated by the NameNode
 * once it declares the target dead, and every file ends healthy and byte-identical. The
 * source's connections are throttled to 2 MiB/s so that the batch of 16 one-MiB blocks is
 * still streaming when the target stops. Its own cluster, because it stops a DataNode.
 */
class BatchTransferTargetLossTest {
  private static final int FILES = 16;

  private static LocusMiniCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = BatchTransferClusters.threeNodes("batch-transfer-target-loss")
        .set(NdCouplingConfigKeys.BATCH_TRANSFER_BANDWIDTH_PER_SEC, "2m")
        .start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aTargetLostMidBatchLosesNoBlock() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    MiniDFSCluster dfs = cluster.getDfsCluster();
    String blockPool = dfs.getNamesystem().getBlockPoolId();
    DataNode a = dfs.getDataNodes().get(0);
    DataNode b = dfs.getDataNodes().get(1);
    DataNode c = dfs.getDataNodes().get(2);
    List<Path> files = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      Path file = new Path("/loss/part-" + i);
      contents.add(writeOn(fs, file, BatchTransferClusters.BLOCK_SIZE, i, a, c));
      files.add(file);
    }
    InetSocketAddress source = service(a);
    InetSocketAddress target = service(b);
    List<BlockPush> blocks = pushesOf(fs, files, a.getDatanodeUuid());

    CompletableFuture<PushResult> pushing = CompletableFuture.supplyAsync(() -> {
      try {
        return new BatchTransferClient().push(source, blockPool, target, blocks, 60_000);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    BatchTransferMetrics received = metrics(b);
    GenericTestUtils.waitFor(() -> received.blocksReceived() >= 2, 20, 30_000,
        "B never received 2 blocks");
    DatanodeID lost = b.getDatanodeId();
    dfs.stopDataNode(b.getDatanodeId().getXferAddr());
    PushResult result = pushing.get(60, TimeUnit.SECONDS);

    assertTrue(result.transferred() >= 2, result.outcomes().toString());
    assertTrue(result.failed() > 0, "the batch finished before B stopped: " + result);
    assertEquals(FILES, result.transferred() + result.failed(), result.toString());
    assertEquals(1, result.connectionsOpened());
    for (BlockOutcome outcome : result.failures()) {
      // throws ReplicaNotFoundException naming the block if the source lost its replica
      assertEquals(outcome.blockId(),
          a.getFSDataset().getStoredBlock(blockPool, outcome.blockId()).getBlockId());
    }

    dfs.setDataNodeDead(lost);
    // A block B had confirmed loses A's replica all the same (the NameNode chose it as excess
    // before B died) and comes back by re-replication. The NameNode's counters can all read 0
    // for a moment while such a block is between A's deletion and its re-replication (seen on a
    // loaded machine), so the wait is for the outcome itself: every block on disk on A and C and
    // listed so, with nothing left to delete, re-replicate or wait for.
    FSNamesystem namesystem = dfs.getNamesystem();
    Set<String> ac = uuids(a, c);
    List<String> notYet = new ArrayList<>();
    try {
      GenericTestUtils.waitFor(() -> {
        notYet.clear();
        for (Path file : files) {
          try {
            if (!ac.equals(holders(blockOf(fs, file), a, c))
                || !ac.equals(locations(fs, file))) {
              notYet.add(file.getName());
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return notYet.isEmpty() && namesystem.getExcessBlocks() == 0
            && namesystem.getPendingDeletionBlocks() == 0
            && namesystem.getPendingReconstructionBlocks() == 0
            && namesystem.getLowRedundancyBlocks() == 0;
      }, 100, 120_000);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("120 s after losing B, not on disk on A and C and listed so: "
          + notYet + "; excess " + namesystem.getExcessBlocks() + ", pending deletion "
          + namesystem.getPendingDeletionBlocks() + ", pending reconstruction "
          + namesystem.getPendingReconstructionBlocks() + ", low redundancy "
          + namesystem.getLowRedundancyBlocks(), e);
    }
    for (int i = 0; i < FILES; i++) {
      Path file = files.get(i);
      assertEquals(ac, holders(blockOf(fs, file), a, c), file + " on disk");
      assertEquals(ac, locations(fs, file), file + " in the NameNode");
      assertArrayEquals(contents.get(i), DFSTestUtil.readFileAsBytes(fs, file), file.toString());
    }
    String fsck = DFSTestUtil.runFsck(cluster.getConfiguration(), 0, true, "/loss");
    assertTrue(fsck.contains("is HEALTHY"), fsck);
  }

  /** @return the UUIDs of those of {@code nodes} that hold a finalized replica of the block */
  private static Set<String> holders(ExtendedBlock block, DataNode... nodes) {
    Set<String> holders = new HashSet<>();
    for (DataNode dn : nodes) {
      if (dn.getFSDataset().isValidBlock(block)) {
        holders.add(dn.getDatanodeUuid());
      }
    }
    return holders;
  }
}
