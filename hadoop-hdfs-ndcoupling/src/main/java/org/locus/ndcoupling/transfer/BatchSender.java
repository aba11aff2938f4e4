package org.locus.ndcoupling.transfer;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source's side of one batch connection: opens ONE connection to the target's service and
 * sends a list of blocks over it, one after another (seed 004 §4.3 step 3), reporting each
 * block's outcome as soon as the target has answered for it. A block the source cannot read
 * fails alone; a broken connection fails the block in flight and every block not yet sent,
 * and the blocks the target already confirmed stay confirmed.
 */
final class BatchSender {
  private static final Logger LOG = LoggerFactory.getLogger(BatchSender.class);

  private final FsDatasetSpi<?> dataset;
  private final String node;
  private final BatchTransferSettings settings;
  private final BatchTransferMetrics metrics;
  private final Set<Socket> openConnections;

  /**
   * @param node the source DataNode's name, for messages
   * @param openConnections the service's open sockets, which it closes when it stops; the
   *     connection to the target is registered there while it is open
   */
  BatchSender(FsDatasetSpi<?> dataset, String node, BatchTransferSettings settings,
      BatchTransferMetrics metrics, Set<Socket> openConnections) {
    this.dataset = dataset;
    this.node = node;
    this.settings = settings;
    this.metrics = metrics;
    this.openConnections = openConnections;
  }

  /**
   * Sends {@code blocks} of {@code blockPoolId} to {@code target} over one connection.
   *
   * @param outcomes receives one outcome per block, from this thread
   * @param cancelled checked before each block; true stops the batch (outcomes for the blocks
   *     not sent are then not reported)
   * @return whether the connection was opened, and the data bytes written to it
   */
  Sent send(String blockPoolId, InetSocketAddress target, List<BlockPush> blocks,
      Consumer<BlockOutcome> outcomes, BooleanSupplier cancelled) {
    String peer = "target " + target;
    long[] sent = new long[1];
    int opened = 0;
    int next = 0;
    Socket connection = new Socket();
    openConnections.add(connection);
    try (Socket socket = connection) {
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(settings.socketTimeoutMs());
      socket.connect(target, settings.socketTimeoutMs());
      metrics.connectionOpened();
      opened = 1;
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
          socket.getOutputStream(), BatchTransferProtocol.PACKET_MAX + 8));
      DataInputStream in = new DataInputStream(new BufferedInputStream(
          socket.getInputStream()));
      BatchTransferProtocol.writeHello(out, BatchTransferProtocol.VERB_RECEIVE);
      out.flush();
      BatchTransferProtocol.readAnswer(in, peer);
      out.writeUTF(blockPoolId);
      out.writeUTF(node);
      DataTransferThrottler throttler = settings.bandwidthPerSec() > 0
          ? new DataTransferThrottler(settings.bandwidthPerSec()) : null;
      for (; next < blocks.size() && !cancelled.getAsBoolean(); next++) {
        report(sendOne(blockPoolId, blocks.get(next), out, in, throttler, sent, peer),
            outcomes);
      }
      out.writeByte(BatchTransferProtocol.END);
      out.flush();
    } catch (IOException e) {
      LOG.warn("Batch connection from {} to {} failed after {} of {} blocks", node, target,
          next, blocks.size(), e);
      for (int i = next; i < blocks.size() && !cancelled.getAsBoolean(); i++) {
        BlockPush push = blocks.get(i);
        report(BlockOutcome.failed(push.blockId(), push.blockName() + " not sent from "
            + node + ": the connection to " + peer + " failed: " + e), outcomes);
      }
    } finally {
      openConnections.remove(connection);
    }
    return new Sent(opened, sent[0]);
  }

  /** What one batch connection cost: connections opened (0 or 1) and data bytes written. */
  record Sent(int connections, long bytes) {
  }

  private void report(BlockOutcome outcome, Consumer<BlockOutcome> outcomes) {
    if (outcome.status() == BlockOutcome.Status.FAILED) {
      metrics.blockSendFailed();
    } else if (outcome.status() == BlockOutcome.Status.TRANSFERRED) {
      metrics.blockSent(outcome.bytes());
    }
    outcomes.accept(outcome);
  }

  /**
   * Offers one block and, if the target wants it, sends its data and checksums.
   *
   * @param sent the connection's count of data bytes written, advanced by this block's
   * @return the block's outcome; a connection failure is thrown instead
   */
  private BlockOutcome sendOne(String blockPoolId, BlockPush push, DataOutputStream out,
      DataInputStream in, DataTransferThrottler throttler, long[] sent, String peer)
      throws IOException {
    SourceReplica replica;
    try {
      replica = SourceReplica.open(dataset, blockPoolId, push, node);
    } catch (SourceReplica.SourceReplicaException e) {
      return BlockOutcome.failed(push.blockId(), e.getMessage());
    } catch (IOException e) {
      LOG.warn("Cannot read the replica of {} on {}", push.blockName(), node, e);
      return BlockOutcome.failed(push.blockId(), "cannot read the replica of "
          + push.blockName() + " on source " + node + ": " + e);
    }
    try (SourceReplica open = replica) {
      out.writeByte(BatchTransferProtocol.BLOCK);
      out.writeLong(push.blockId());
      out.writeLong(push.generationStamp());
      out.writeLong(push.numBytes());
      out.writeUTF(push.delHint());
      out.writeUTF(open.storageType().name());
      BlockMetadataHeader.writeHeader(out, open.checksum());
      out.flush();
      byte decision = in.readByte();
      String reason = in.readUTF();
      if (decision == BatchTransferProtocol.HAVE) {
        return BlockOutcome.alreadyPresent(push.blockId());
      }
      if (decision != BatchTransferProtocol.SEND) {
        return BlockOutcome.failed(push.blockId(), peer + " refused " + push.blockName() + ": "
            + reason);
      }
      long before = sent[0];
      String readFailure = sendData(open.data(), push, out, throttler, sent);
      if (readFailure != null) {
        out.writeInt(BatchTransferProtocol.ABORT);
        BatchTransferProtocol.writeReason(out, readFailure);
      } else {
        out.writeInt(BatchTransferProtocol.END_OF_DATA);
        out.writeInt(open.sums().length);
        out.write(open.sums());
      }
      out.flush();
      byte verdict = in.readByte();
      reason = in.readUTF();
      if (verdict == BatchTransferProtocol.WRITTEN) {
        return BlockOutcome.transferred(push.blockId(), sent[0] - before);
      }
      return BlockOutcome.failed(push.blockId(), readFailure != null ? readFailure
          : peer + " discarded " + push.blockName() + ": " + reason);
    }
  }

  /**
   * Copies a replica's {@code numBytes} data bytes to the connection in packets.
   *
   * @return null when all bytes were sent, or why the replica could not be read (the
   *     connection itself is still in step)
   * @throws IOException when writing to the connection fails
   */
  private String sendData(InputStream data, BlockPush push, DataOutputStream out,
      DataTransferThrottler throttler, long[] sent) throws IOException {
    long length = push.numBytes();
    byte[] packet = new byte[BatchTransferProtocol.PACKET_MAX];
    long remaining = length;
    while (remaining > 0) {
      int want = (int) Math.min(packet.length, remaining);
      int got;
      try {
        got = data.readNBytes(packet, 0, want);
      } catch (IOException e) {
        LOG.warn("Reading the replica of {} on {} failed after {} of {} bytes",
            push.blockName(), node, length - remaining, length, e);
        return "reading the replica of " + push.blockName() + " on source " + node
            + " failed after " + (length - remaining) + " of " + length + " bytes: " + e;
      }
      if (got < want) {
        return "the replica of " + push.blockName() + " on source " + node + " ended after "
            + (length - remaining + got) + " of " + length + " bytes";
      }
      out.writeInt(got);
      out.write(packet, 0, got);
      sent[0] += got;
      remaining -= got;
      if (throttler != null) {
        throttler.throttle(got);
      }
    }
    return null;
  }
}
