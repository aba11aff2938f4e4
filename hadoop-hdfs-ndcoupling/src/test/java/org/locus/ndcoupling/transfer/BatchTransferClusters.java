package org.locus.ndcoupling.transfer;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.test.GenericTestUtils;
import org.locus.kit.LocusMiniCluster;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * The embedded clusters of the batch transfer tests and what they share: three DataNodes, each
 * running {@link BatchTransferService} on a free port, 1 MiB blocks, and files written onto
 * chosen nodes (client favored nodes) so that a test knows which node lacks them.
 */
final class BatchTransferClusters {
  static final int BLOCK_SIZE = 1024 * 1024;

  private BatchTransferClusters() {
  }

  static LocusMiniCluster.Builder threeNodes(String name) {
    return LocusMiniCluster.builder(new File("target/test-clusters/" + name))
        .nodes(3)
        .set("dfs.datanode.plugins", BatchTransferService.class.getName())
        .set(NdCouplingConfigKeys.BATCH_TRANSFER_PORT, "0")
        .set("dfs.blocksize", Integer.toString(BLOCK_SIZE))
        .set("dfs.replication", "2")
        // the volume scanner would find a replica a test corrupts on purpose and report it
        .set("dfs.block.scanner.volume.bytes.per.second", "0")
        // many one-block files: a short first wait for the last block to complete
        .set("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
  }

  /** @return the DataNode's batch transfer counters, found through its metrics source */
  static BatchTransferMetrics metrics(DataNode dn) {
    String name = BatchTransferMetrics.sourceName(dn.getDisplayName());
    BatchTransferMetrics source =
        (BatchTransferMetrics) DefaultMetricsSystem.instance().getSource(name);
    if (source == null) {
      throw new AssertionError("no metrics source " + name + ": is the plug-in running?");
    }
    return source;
  }

  /** @return where the DataNode's batch transfer service listens */
  static InetSocketAddress service(DataNode dn) {
    return new InetSocketAddress(dn.getXferAddress().getAddress(), metrics(dn).listenPort());
  }

  /**
   * Writes {@code bytes} random bytes from {@code seed} to {@code file}, with as many replicas
   * as {@code onNodes} names, placed on those DataNodes, and waits until the NameNode lists
   * exactly them (a file is complete once one replica is reported); returns the bytes.
   */
  static byte[] writeOn(DistributedFileSystem fs, Path file, int bytes, long seed,
      DataNode... onNodes) throws IOException, InterruptedException, TimeoutException {
    byte[] data = new byte[bytes];
    new Random(seed).nextBytes(data);
    InetSocketAddress[] favored = Arrays.stream(onNodes).map(DataNode::getXferAddress)
        .toArray(InetSocketAddress[]::new);
    try (FSDataOutputStream out = fs.create(file, FsPermission.getFileDefault(), true, 4096,
        (short) onNodes.length, BLOCK_SIZE, null, favored)) {
      out.write(data);
    }
    awaitLocations(fs, file, uuids(onNodes));
    return data;
  }

  /** Waits until the NameNode lists exactly the DataNodes {@code expected} for the file. */
  static void awaitLocations(DistributedFileSystem fs, Path file, Set<String> expected)
      throws InterruptedException, TimeoutException {
    GenericTestUtils.waitFor(() -> {
      try {
        return locations(fs, file).equals(expected);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the locations of " + file, e);
      }
    }, 50, 30_000, file + " never listed exactly on " + expected);
  }

  /** @return the UUIDs of the DataNodes the NameNode lists for the file's only block */
  static Set<String> locations(DistributedFileSystem fs, Path file) throws IOException {
    return Arrays.stream(onlyBlock(fs, file).getLocations()).map(DatanodeInfo::getDatanodeUuid)
        .collect(Collectors.toSet());
  }

  static LocatedBlock onlyBlock(DistributedFileSystem fs, Path file) throws IOException {
    LocatedBlocks blocks = fs.getClient().getLocatedBlocks(file.toUri().getPath(), 0);
    if (blocks.locatedBlockCount() != 1) {
      throw new AssertionError(file + " has " + blocks.locatedBlockCount() + " blocks, not 1");
    }
    return blocks.get(0);
  }

  static ExtendedBlock blockOf(DistributedFileSystem fs, Path file) throws IOException {
    return onlyBlock(fs, file).getBlock();
  }

  /** @return a push of the only block of each file, as the NameNode knows it */
  static List<BlockPush> pushesOf(DistributedFileSystem fs, List<Path> files, String delHint)
      throws IOException {
    List<BlockPush> pushes = new ArrayList<>();
    for (Path file : files) {
      pushes.add(pushOf(blockOf(fs, file), delHint));
    }
    return pushes;
  }

  static BlockPush pushOf(ExtendedBlock block, String delHint) {
    return new BlockPush(block.getBlockId(), block.getGenerationStamp(), block.getNumBytes(),
        delHint);
  }

  static Set<String> uuids(DataNode... nodes) {
    return Arrays.stream(nodes).map(DataNode::getDatanodeUuid).collect(Collectors.toSet());
  }
}
