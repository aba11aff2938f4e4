package org.locus.ndcoupling.transfer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.awaitLocations;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.blockOf;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.locations;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.metrics;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.pushOf;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.pushesOf;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.service;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.uuids;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.writeOn;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException;
import org.apache.hadoop.hdfs.server.datanode.StorageLocation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.kit.LocusMiniCluster;

/**
 * The batch transfer on an embedded 3-node cluster: files are written with two replicas on
 * node A and node C, and A pushes them to B, which lacks them, as a gear-up hands a stand-in's
 * blocks back to the reactivated node (seed 004 §4.3 step 3). One cluster for the class.
 */
class BatchTransferTest {
  private static final int FILE_BYTES = 64 * 1024;
  private static final int PUSH_TIMEOUT_MS = 60_000;

  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;
  private static String blockPool;
  private static DataNode a;
  private static DataNode b;
  private static DataNode c;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = BatchTransferClusters.threeNodes("batch-transfer").start();
    fs = cluster.getFileSystem();
    blockPool = cluster.getDfsCluster().getNamesystem().getBlockPoolId();
    List<DataNode> nodes = cluster.getDfsCluster().getDataNodes();
    a = nodes.get(0);
    b = nodes.get(1);
    c = nodes.get(2);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void movesAllOfASourcesBlocksToATargetOverOneConnection() throws Exception {
    List<Path> files = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Path file = new Path("/gear-up/part-" + i);
      contents.add(writeOn(fs, file, FILE_BYTES, i, a, c));
      files.add(file);
    }
    long opened = metrics(a).connectionsOpened();
    long accepted = metrics(b).connectionsAccepted();
    long sent = metrics(a).blocksSent();
    long received = metrics(b).blocksReceived();

    PushResult result = push(pushesOf(fs, files, a.getDatanodeUuid()));

    assertEquals(40, result.transferred(), result.failures().toString());
    assertEquals(1, result.connectionsOpened());
    assertEquals(40L * FILE_BYTES, result.bytesSent());
    assertEquals(1, metrics(a).connectionsOpened() - opened, "connections A opened");
    assertEquals(1, metrics(b).connectionsAccepted() - accepted, "connections B accepted");
    assertEquals(40, metrics(a).blocksSent() - sent, "blocks A sent");
    assertEquals(40, metrics(b).blocksReceived() - received, "blocks B received");
    for (Path file : files) {
      awaitLocations(fs, file, uuids(b, c));
    }
    for (int i = 0; i < files.size(); i++) {
      assertArrayEquals(contents.get(i), DFSTestUtil.readFileAsBytes(fs, files.get(i)),
          files.get(i).toString());
    }
  }

  @Test
  void rejectsABlockWhoseDataNoLongerMatchesItsChecksums() throws Exception {
    Path corrupt = new Path("/corrupt/bad");
    Path good = new Path("/corrupt/good");
    writeOn(fs, corrupt, FILE_BYTES, 100, a, c);
    byte[] goodBytes = writeOn(fs, good, FILE_BYTES, 101, a, c);
    ExtendedBlock bad = blockOf(fs, corrupt);
    cluster.getDfsCluster().corruptReplica(a, bad);
    long rejected = metrics(b).blocksRejected();

    PushResult result = push(pushesOf(fs, List.of(corrupt, good), a.getDatanodeUuid()));

    BlockOutcome outcome = result.outcomeOf(bad.getBlockId());
    assertEquals(BlockOutcome.Status.FAILED, outcome.status(), outcome.toString());
    assertTrue(outcome.reason().contains("checksum mismatch in chunk 0")
        && outcome.reason().contains("blk_" + bad.getBlockId()), outcome.reason());
    assertEquals(1, metrics(b).blocksRejected() - rejected);
    assertEquals(BlockOutcome.Status.TRANSFERRED,
        result.outcomeOf(blockOf(fs, good).getBlockId()).status());
    awaitLocations(fs, good, uuids(b, c));
    assertArrayEquals(goodBytes, DFSTestUtil.readFileAsBytes(fs, good));
    assertThrows(ReplicaNotFoundException.class,
        () -> b.getFSDataset().getStoredBlock(blockPool, bad.getBlockId()));
    assertEquals(List.of(), blockFilesOf(b, bad), "files of the rejected block left on B");
    assertEquals(uuids(a, c), locations(fs, corrupt), "NameNode's locations of the bad block");
  }

  @Test
  void reportsABlockTheSourceLacksAndStillSendsTheOthers() throws Exception {
    Path first = new Path("/lacking/first");
    Path elsewhere = new Path("/lacking/elsewhere");
    Path last = new Path("/lacking/last");
    writeOn(fs, first, FILE_BYTES, 200, a, c);
    writeOn(fs, elsewhere, FILE_BYTES, 201, b, c);
    writeOn(fs, last, FILE_BYTES, 202, a, c);
    ExtendedBlock lacking = blockOf(fs, elsewhere);

    PushResult result =
        push(pushesOf(fs, List.of(first, elsewhere, last), a.getDatanodeUuid()));

    assertEquals(2, result.transferred(), result.outcomes().toString());
    BlockOutcome outcome = result.outcomeOf(lacking.getBlockId());
    assertEquals(BlockOutcome.Status.FAILED, outcome.status());
    assertTrue(outcome.reason().contains("holds no replica of blk_" + lacking.getBlockId()),
        outcome.reason());
    assertEquals(1, result.connectionsOpened());
    awaitLocations(fs, first, uuids(b, c));
    awaitLocations(fs, last, uuids(b, c));
    assertEquals(uuids(b, c), locations(fs, elsewhere));
  }

  @Test
  void refusesToSendAReplicaUnderAnotherGenerationStamp() throws Exception {
    Path file = new Path("/stale/file");
    writeOn(fs, file, FILE_BYTES, 300, a, c);
    ExtendedBlock block = blockOf(fs, file);
    BlockPush newer = new BlockPush(block.getBlockId(), block.getGenerationStamp() + 1,
        block.getNumBytes(), "");

    PushResult result = push(List.of(newer));

    BlockOutcome outcome = result.outcomeOf(block.getBlockId());
    assertEquals(BlockOutcome.Status.FAILED, outcome.status());
    assertTrue(outcome.reason().contains("generation stamp " + block.getGenerationStamp()),
        outcome.reason());
    assertThrows(ReplicaNotFoundException.class,
        () -> b.getFSDataset().getStoredBlock(blockPool, block.getBlockId()));
  }

  @Test
  void acknowledgesABlockTheTargetAlreadyHoldsWithoutSendingIt() throws Exception {
    Path file = new Path("/present/file");
    writeOn(fs, file, FILE_BYTES, 400, a, c);
    long present = metrics(c).blocksAlreadyPresent();

    PushResult result = new BatchTransferClient().push(service(a), blockPool, service(c),
        List.of(pushOf(blockOf(fs, file), "")), PUSH_TIMEOUT_MS);

    assertEquals(1, result.alreadyPresent(), result.outcomes().toString());
    assertEquals(0, result.bytesSent());
    assertEquals(1, metrics(c).blocksAlreadyPresent() - present);
    assertEquals(uuids(a, c), locations(fs, file));
  }

  @Test
  void failsEveryBlockOfABlockPoolTheSourceDoesNotServe() throws Exception {
    Path file = new Path("/pool/file");
    writeOn(fs, file, FILE_BYTES, 500, a, c);
    ExtendedBlock block = blockOf(fs, file);

    PushResult result = new BatchTransferClient().push(service(a), "BP-no-such-pool",
        service(b), List.of(pushOf(block, "")), PUSH_TIMEOUT_MS);

    BlockOutcome outcome = result.outcomeOf(block.getBlockId());
    assertEquals(BlockOutcome.Status.FAILED, outcome.status());
    assertTrue(outcome.reason().contains("serves no block pool BP-no-such-pool"),
        outcome.reason());
    assertEquals(0, result.connectionsOpened());
  }

  @Test
  void refusesAPeerSpeakingAnotherProtocolVersion() throws Exception {
    try (Socket socket = new Socket()) {
      socket.connect(service(b), 10_000);
      socket.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      out.writeInt(BatchTransferProtocol.MAGIC);
      out.writeByte(BatchTransferProtocol.VERSION + 1);
      out.writeByte(BatchTransferProtocol.VERB_RECEIVE);
      out.flush();
      DataInputStream in = new DataInputStream(socket.getInputStream());

      assertEquals(BatchTransferProtocol.REFUSED, in.readByte());
      String reason = in.readUTF();
      assertTrue(reason.contains("version " + (BatchTransferProtocol.VERSION + 1)
          + " is not supported"), reason);
    }
  }

  /** Pushes from A to B. */
  private static PushResult push(List<BlockPush> blocks) throws IOException {
    return new BatchTransferClient().push(service(a), blockPool, service(b), blocks,
        PUSH_TIMEOUT_MS);
  }

  /** @return the files of the block's replica anywhere under the DataNode's volumes */
  private static List<File> blockFilesOf(DataNode dn, ExtendedBlock block) throws IOException {
    List<File> found = new ArrayList<>();
    String name = "blk_" + block.getBlockId();
    for (String dir : dn.getConf().getTrimmedStrings("dfs.datanode.data.dir")) {
      File root = new File(StorageLocation.parse(dir).getUri());
      try (Stream<java.nio.file.Path> walk = Files.walk(root.toPath())) {
        walk.map(java.nio.file.Path::toFile)
            .filter(f -> f.getName().equals(name) || f.getName().startsWith(name + "_"))
            .forEach(found::add);
      }
    }
    return found;
  }
}
