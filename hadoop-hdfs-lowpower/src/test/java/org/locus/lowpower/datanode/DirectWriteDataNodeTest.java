package org.locus.lowpower.datanode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.kit.LocusMiniCluster;
import org.locus.lowpower.LowpowerConfigKeys;

/**
 * DataNodes writing block files with O_DIRECT ({@link DirectWriteDatasetFactory}, toggle on),
 * checked against what stock HDFS guarantees: block and meta files hold exactly the written
 * bytes and their CRCs, hflushed bytes are readable at once, appends continue a file exactly,
 * re-replicated copies are identical, and bytes flushed before a DataNode restart survive lease
 * recovery. 3 nodes, 1 MiB blocks, files of a few MiB. The restart case runs last: it is the
 * one that changes the cluster.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DirectWriteDataNodeTest {
  private static final int BLOCK = 1 << 20;
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/direct-writes"))
        .nodes(3)
        .set("dfs.datanode.fsdataset.factory", LowpowerConfigKeys.DATASET_FACTORY_CLASS)
        .set(LowpowerConfigKeys.DIRECT_WRITES, "true")
        .set("dfs.blocksize", Integer.toString(BLOCK))
        .set("dfs.replication", "2")
        .set("dfs.heartbeat.interval", "1")
        .set("dfs.namenode.redundancy.interval.seconds", "1")
        .start();
    fs = cluster.getFileSystem();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void everyDataNodeWritesItsOpenBlockFileWithODirect() throws Exception {
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      assertTrue(Proxy.isProxyClass(dn.getFSDataset().getClass()),
          dn.getDisplayName() + " runs " + dn.getFSDataset().getClass());
    }
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/open/file");
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(data(1, 100_000));
      out.hflush();
      LocatedBlock block = lastBlock(file);
      for (DatanodeInfo host : block.getLocations()) {
        Path rbw = Path.of(replicaFile(host, block).getBlockPath());
        assertTrue(rbw.toString().contains("/rbw/"), "block being written: " + rbw);
        assertTrue(OpenDescriptors.anyHasODirect(rbw),
            "no descriptor of " + rbw + " has O_DIRECT on " + host);
      }
    }
  }

  @Test
  @Order(2)
  void blockAndMetaFilesHoldExactlyTheWrittenBytesAndTheirChecksums() throws Exception {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/exact/file");
    byte[] bytes = data(2, 2 * BLOCK + 12_345);
    try (FSDataOutputStream out = fs.create(file)) {
      // writes of odd sizes, so no packet ends on a file system block boundary
      for (int at = 0; at < bytes.length; at += 7_777) {
        out.write(bytes, at, Math.min(7_777, bytes.length - at));
      }
    }
    List<LocatedBlock> blocks = awaitReplicas(file, 2);
    assertEquals(3, blocks.size());
    for (LocatedBlock block : blocks) {
      byte[] expected = Arrays.copyOfRange(bytes, (int) block.getStartOffset(),
          (int) (block.getStartOffset() + block.getBlockSize()));
      for (DatanodeInfo host : block.getLocations()) {
        assertReplicaHolds(expected, replicaFile(host, block), host);
      }
    }
  }

  @Test
  @Order(3)
  void hflushedBytesAreReadableAtOnceWhileTheWriterGoesOn() throws Exception {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/flushed/file");
    byte[] bytes = data(3, 300_001);
    int[] flushPoints = {5_000, 5_001, 70_000, 131_072, 300_001};
    try (FSDataOutputStream out = fs.create(file)) {
      int written = 0;
      for (int point : flushPoints) {
        out.write(bytes, written, point - written);
        written = point;
        out.hflush();
        assertArrayEquals(Arrays.copyOf(bytes, point), readVisible(file, point),
            "bytes visible after an hflush at " + point);
      }
    }
    assertArrayEquals(bytes, readAll(file));
  }

  @Test
  @Order(4)
  void appendsAfterCloseAndAfterHsyncContinueTheFileExactly() throws Exception {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/append/file");
    byte[] bytes = data(4, 900_000);
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(bytes, 0, 10_001);
    }
    try (FSDataOutputStream out = fs.append(file)) {
      out.write(bytes, 10_001, 250_000);
      out.hsync();
      assertArrayEquals(Arrays.copyOf(bytes, 260_001), readVisible(file, 260_001),
          "bytes visible to a reader while the append is open");
      out.write(bytes, 260_001, 3);
    }
    try (FSDataOutputStream out = fs.append(file)) {
      out.write(bytes, 260_004, bytes.length - 260_004);
    }
    assertArrayEquals(bytes, readAll(file));
    LocatedBlock block = lastBlock(file);
    for (DatanodeInfo host : block.getLocations()) {
      assertReplicaHolds(bytes, replicaFile(host, block), host);
    }
  }

  @Test
  @Order(5)
  void reReplicatedCopiesAreIdenticalToTheFirstOnes() throws Exception {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/rereplicated/file");
    byte[] bytes = data(5, BLOCK / 2 + 4_321);
    try (FSDataOutputStream out = fs.create(file, (short) 1)) {
      out.write(bytes);
    }
    fs.setReplication(file, (short) 3);
    List<LocatedBlock> replicated = awaitReplicas(file, 3);
    LocatedBlock block = replicated.get(replicated.size() - 1);
    for (DatanodeInfo host : block.getLocations()) {
      assertReplicaHolds(bytes, replicaFile(host, block), host);
    }
  }

  @Test
  @Order(6)
  void bytesFlushedBeforeADataNodeRestartSurviveLeaseRecovery() throws Exception {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/restart/file");
    byte[] bytes = data(6, 123_457);
    FSDataOutputStream out = fs.create(file, (short) 1);
    out.write(bytes);
    out.hflush();
    DatanodeInfo host = lastBlock(file).getLocations()[0];
    MiniDFSCluster dfs = cluster.getDfsCluster();
    MiniDFSCluster.DataNodeProperties stopped = dfs.stopDataNode(host.getXferAddr());
    assertTrue(dfs.restartDataNode(stopped, true), "restart " + host);
    dfs.waitActive();
    long deadline = System.currentTimeMillis() + 60_000;
    while (!fs.recoverLease(file)) {
      assertTrue(System.currentTimeMillis() < deadline, "lease of " + file + " not recovered");
      Thread.sleep(200);
    }
    // the writer lost its lease to the recovery: its close can only fail, and must not matter
    org.apache.hadoop.io.IOUtils.closeStream(out);
    assertArrayEquals(bytes, readAll(file));
  }

  private static void assertReplicaHolds(byte[] expected, BlockLocalPathInfo paths,
      DatanodeInfo host) throws IOException {
    File blockFile = new File(paths.getBlockPath());
    assertArrayEquals(expected, Files.readAllBytes(blockFile.toPath()),
        "block file " + blockFile + " on " + host);
    try (RandomAccessFile meta = new RandomAccessFile(paths.getMetaPath(), "r")) {
      DataChecksum checksum = BlockMetadataHeader.readHeader(meta).getChecksum();
      int chunks = (expected.length + checksum.getBytesPerChecksum() - 1)
          / checksum.getBytesPerChecksum();
      ByteBuffer sums = ByteBuffer.allocate(chunks * checksum.getChecksumSize());
      checksum.calculateChunkedSums(ByteBuffer.wrap(expected), sums);
      byte[] stored = new byte[(int) (meta.length() - meta.getFilePointer())];
      meta.readFully(stored);
      assertArrayEquals(sums.array(), stored, "checksums in " + paths.getMetaPath());
    }
  }

  private static BlockLocalPathInfo replicaFile(DatanodeInfo host, LocatedBlock block)
      throws IOException {
    DataNode dn = cluster.getDfsCluster().getDataNode(host.getIpcPort());
    return dn.getFSDataset().getBlockLocalPathInfo(block.getBlock());
  }

  private static LocatedBlock lastBlock(org.apache.hadoop.fs.Path file) throws IOException {
    List<LocatedBlock> blocks =
        fs.getClient().getLocatedBlocks(file.toString(), 0).getLocatedBlocks();
    return blocks.get(blocks.size() - 1);
  }

  /**
   * @return the file's blocks once every one lists {@code count} replicas: a DataNode reports a
   *     finished replica to the NameNode on its own schedule, which may be after the writer's
   *     close returned (close needs only the minimum replication)
   */
  private static List<LocatedBlock> awaitReplicas(org.apache.hadoop.fs.Path file, int count)
      throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (true) {
      List<LocatedBlock> blocks =
          fs.getClient().getLocatedBlocks(file.toString(), 0).getLocatedBlocks();
      LocatedBlock incomplete = blocks.stream().filter(b -> b.getLocations().length != count)
          .findFirst().orElse(null);
      if (incomplete == null) {
        return blocks;
      }
      assertTrue(System.currentTimeMillis() < deadline, file + " block at "
          + incomplete.getStartOffset() + " has " + incomplete.getLocations().length + " of "
          + count + " replicas");
      Thread.sleep(200);
    }
  }

  private static byte[] readVisible(org.apache.hadoop.fs.Path file, int length)
      throws IOException {
    byte[] read = new byte[length];
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(0, read);
    }
    return read;
  }

  private static byte[] readAll(org.apache.hadoop.fs.Path file) throws IOException {
    return readVisible(file, (int) fs.getFileStatus(file).getLen());
  }

  private static byte[] data(long seed, int length) {
    byte[] bytes = new byte[length];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }
}
