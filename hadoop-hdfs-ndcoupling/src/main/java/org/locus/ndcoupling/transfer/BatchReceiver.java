package org.locus.ndcoupling.transfer;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.NdCouplingDataNodeAccess;
import org.apache.hadoop.hdfs.server.datanode.ReplicaHandler;
import org.apache.hadoop.hdfs.server.datanode.ReplicaInPipeline;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.ReplicaOutputStreams;
import org.apache.hadoop.util.DataChecksum;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The target's side of one batch connection: takes the blocks a source offers, one after
 * another, and stores each as an ordinary replica through the dataset's own API, as a
 * DataNode-to-DataNode transfer does ({@code createTemporary} with {@code isTransfer}, the
 * replica's output streams, {@code finalizeBlock}), then reports it through the DataNode's
 * incremental block report with the push's delHint.
 *
 * <p>Every chunk's CRC is recomputed from the data received and compared with the CRC the
 * source's meta file holds, before the replica is finalized: a block whose data does not match
 * is discarded (the temporary replica deleted) and never reported. A block this node already
 * holds finalized with the same generation stamp is acknowledged without being sent again.
 */
final class BatchReceiver {
  private static final Logger LOG = LoggerFactory.getLogger(BatchReceiver.class);

  private final DataNode dataNode;
  private final FsDatasetSpi<?> dataset;
  private final String node;
  private final BatchTransferMetrics metrics;
  private final boolean syncOnClose;

  /**
   * @param node this DataNode's name, for messages
   * @param syncOnClose whether to fsync a replica's files and directory when finalizing it
   *     ({@code dfs.datanode.synconclose}, as for any other write)
   */
  BatchReceiver(DataNode dataNode, String node, BatchTransferMetrics metrics,
      boolean syncOnClose) {
    this.dataNode = dataNode;
    this.dataset = dataNode.getFSDataset();
    this.node = node;
    this.metrics = metrics;
    this.syncOnClose = syncOnClose;
  }

  /**
   * Serves a RECEIVE connection after its hello, until the source's end frame.
   *
   * @param peer the connection's remote address
   */
  void serve(DataInputStream in, DataOutputStream out, String peer) throws IOException {
    String blockPoolId = in.readUTF();
    String source = "source " + in.readUTF() + " (" + peer + ")";
    int received = 0;
    while (true) {
      byte frame = in.readByte();
      if (frame == BatchTransferProtocol.END) {
        LOG.info("Batch from {} to {} ended: {} blocks of {} received", source, node, received,
            blockPoolId);
        return;
      }
      BatchTransferProtocol.expect(BatchTransferProtocol.BLOCK, frame, "batch from " + source);
      IncomingBlock incoming = IncomingBlock.read(blockPoolId, in, source);
      if (offer(incoming, out) && receive(incoming, in, out)) {
        received++;
      }
    }
  }

  /** A block a source offers, from its header to its verdict. */
  private static final class IncomingBlock {
    final ExtendedBlock block;
    final String delHint;
    final String storageType;
    final DataChecksum checksum;
    final String source;
    /** The temporary replica, once created. */
    ReplicaHandler handler;
    /** Its output streams, once opened. */
    ReplicaOutputStreams streams;
    /** The source's CRCs, once they matched the data. */
    byte[] sums;

    private IncomingBlock(ExtendedBlock block, String delHint, String storageType,
        DataChecksum checksum, String source) {
      this.block = block;
      this.delHint = delHint;
      this.storageType = storageType;
      this.checksum = checksum;
      this.source = source;
    }

    /** Reads a block header after its frame byte. */
    static IncomingBlock read(String blockPoolId, DataInputStream in, String source)
        throws IOException {
      long blockId = in.readLong();
      long generationStamp = in.readLong();
      long numBytes = in.readLong();
      String delHint = in.readUTF();
      String storageType = in.readUTF();
      DataChecksum checksum = BlockMetadataHeader.readHeader(in).getChecksum();
      return new IncomingBlock(
          new ExtendedBlock(blockPoolId, blockId, numBytes, generationStamp), delHint,
          storageType, checksum, source);
    }
  }

  /**
   * Answers a block header: have it, refuse it, or create a temporary replica for it.
   *
   * @return whether the source now sends the block's data
   */
  private boolean offer(IncomingBlock incoming, DataOutputStream out) throws IOException {
    ExtendedBlock block = incoming.block;
    String refusal = null;
    if (!NdCouplingDataNodeAccess.servesBlockPool(dataNode, block.getBlockPoolId())) {
      refusal = "target " + node + " serves no block pool " + block.getBlockPoolId()
          + " (" + block.getLocalBlock() + ")";
    } else if (dataset.isValidBlock(block)) {
      acknowledgePresent(incoming);
      answer(out, BatchTransferProtocol.HAVE, "");
      return false;
    } else {
      try {
        incoming.handler =
            dataset.createTemporary(storageTypeFor(incoming), null, block, true);
      } catch (IOException e) {
        LOG.info("Refusing {} from {}: {}", block, incoming.source, e.toString());
        refusal = "target " + node + " cannot create a replica of " + block.getLocalBlock()
            + ": " + e;
      }
    }
    if (refusal != null) {
      metrics.blockRejected();
      answer(out, BatchTransferProtocol.REFUSE, refusal);
      return false;
    }
    answer(out, BatchTransferProtocol.SEND, "");
    return true;
  }

  private static void answer(DataOutputStream out, byte code, String reason)
      throws IOException {
    out.writeByte(code);
    BatchTransferProtocol.writeReason(out, reason);
    out.flush();
  }

  /**
   * A block already here is not rewritten; with a delHint it is reported again, so that a push
   * repeated after a lost answer still lets the NameNode drop the stand-in's replica.
   */
  private void acknowledgePresent(IncomingBlock incoming) {
    metrics.blockAlreadyPresent();
    if (!incoming.delHint.isEmpty()) {
      FsVolumeSpi volume = dataset.getVolume(incoming.block);
      if (volume != null) {
        dataNode.notifyNamenodeReceivedBlock(incoming.block, incoming.delHint,
            volume.getStorageID(), volume.isTransientStorage());
      }
    }
  }

  /**
   * The source's storage type when this node has a volume of it (an ARCHIVE replica stays on
   * ARCHIVE), else the default type; a mismatch with the file's storage policy is the Mover's
   * to fix, as after any re-replication.
   */
  private StorageType storageTypeFor(IncomingBlock incoming) throws IOException {
    StorageType wanted;
    try {
      wanted = StorageType.valueOf(incoming.storageType);
    } catch (IllegalArgumentException e) {
      throw new IOException("unknown storage type " + incoming.storageType + " for "
          + incoming.block.getLocalBlock(), e);
    }
    try (FsDatasetSpi.FsVolumeReferences volumes = dataset.getFsVolumeReferences()) {
      for (FsVolumeSpi volume : volumes) {
        if (volume.getStorageType() == wanted) {
          return wanted;
        }
      }
    }
    return StorageType.DEFAULT;
  }

  /**
   * Receives a block's data and checksums into its temporary replica, verifies and finalizes
   * it, reports it to the NameNode and gives the source the verdict.
   *
   * @return whether the block was finalized here
   * @throws IOException when the connection fails (the temporary replica is discarded first)
   */
  private boolean receive(IncomingBlock incoming, DataInputStream in, DataOutputStream out)
      throws IOException {
    ExtendedBlock block = incoming.block;
    try (ReplicaHandler handler = incoming.handler) {
      ReplicaInPipeline replica = handler.getReplica();
      String failure;
      try {
        failure = readAndVerify(incoming, replica, in);
        if (failure == null) {
          failure = finalizeReplica(incoming, replica);
        }
      } catch (IOException e) {
        LOG.info("Discarding the unfinished replica of {} from {}: the connection failed",
            block, incoming.source);
        String discardFailure = discard(incoming, replica);
        metrics.blockRejected();
        if (discardFailure != null) {
          e.addSuppressed(new IOException(discardFailure));
        }
        throw e;
      }
      if (failure != null) {
        LOG.warn("Discarding {} from {}: {}", block, incoming.source, failure);
        String discardFailure = discard(incoming, replica);
        metrics.blockRejected();
        answer(out, BatchTransferProtocol.FAILED,
            discardFailure == null ? failure : failure + "; " + discardFailure);
        return false;
      }
      NdCouplingDataNodeAccess.blockReceived(dataNode, block, incoming.delHint,
          replica.getStorageUuid(), replica.isOnTransientStorage());
      metrics.blockReceived(block.getNumBytes());
      LOG.debug("Received {} from {}, delHint {}", block, incoming.source, incoming.delHint);
      answer(out, BatchTransferProtocol.WRITTEN, "");
      return true;
    }
  }

  /**
   * Reads the data packets into the replica's block file while computing every chunk's CRC,
   * then the source's CRCs, and compares them. A failure to write locally does not stop the
   * reading, so the connection stays in step.
   *
   * @return null when every byte arrived, was written and matches its CRC; otherwise why not
   * @throws IOException when the connection fails or the source breaks the protocol
   */
  private String readAndVerify(IncomingBlock incoming, ReplicaInPipeline replica,
      DataInputStream in) throws IOException {
    ExtendedBlock block = incoming.block;
    IOException writeFailure = null;
    try {
      incoming.streams = replica.createStreams(true, incoming.checksum);
    } catch (IOException e) {
      writeFailure = e;
    }
    ChunkSums computed = new ChunkSums(incoming.checksum, block.getNumBytes());
    byte[] packet = new byte[BatchTransferProtocol.PACKET_MAX];
    long received = 0;
    while (true) {
      int length = in.readInt();
      if (length == BatchTransferProtocol.END_OF_DATA) {
        break;
      }
      if (length == BatchTransferProtocol.ABORT) {
        return in.readUTF();
      }
      if (length < 0 || length > packet.length || received + length > block.getNumBytes()) {
        throw new BatchTransferProtocol.ProtocolException(incoming.source + " sent a packet of "
            + length + " bytes at offset " + received + " of " + block + " ("
            + block.getNumBytes() + " bytes)");
      }
      in.readFully(packet, 0, length);
      computed.update(packet, 0, length);
      if (writeFailure == null) {
        try {
          incoming.streams.writeDataToDisk(packet, 0, length);
        } catch (IOException e) {
          writeFailure = e;
        }
      }
      received += length;
    }
    int sumsLength = in.readInt();
    if (sumsLength != computed.length()) {
      throw new BatchTransferProtocol.ProtocolException(incoming.source + " sent "
          + sumsLength + " checksum bytes for " + block + ", its length needs "
          + computed.length());
    }
    byte[] sums = new byte[sumsLength];
    in.readFully(sums);

    if (received != block.getNumBytes()) {
      return incoming.source + " sent " + received + " of the " + block.getNumBytes()
          + " bytes of " + block.getLocalBlock();
    }
    if (writeFailure != null) {
      LOG.warn("Writing {} on {} failed", block, node, writeFailure);
      return "writing " + block.getLocalBlock() + " on target " + node + " failed: "
          + writeFailure;
    }
    int chunk = computed.firstMismatch(sums);
    if (chunk >= 0) {
      long from = (long) chunk * computed.bytesPerChunk();
      long to = Math.min(from + computed.bytesPerChunk(), block.getNumBytes());
      return "checksum mismatch in chunk " + chunk + " (bytes " + from + ".." + to + ") of "
          + block.getLocalBlock() + " received on " + node + " from " + incoming.source
          + ": the data does not match the CRC in the source's meta file";
    }
    incoming.sums = sums;
    return null;
  }

  /**
   * Writes the verified meta file (header and CRCs), closes the replica's files and finalizes
   * it, as {@code BlockReceiver} does for a transfer.
   *
   * @return null when the replica is finalized, otherwise why not
   */
  private String finalizeReplica(IncomingBlock incoming, ReplicaInPipeline replica) {
    ExtendedBlock block = incoming.block;
    try {
      DataOutputStream checksumOut = new DataOutputStream(new BufferedOutputStream(
          incoming.streams.getChecksumOut()));
      BlockMetadataHeader.writeHeader(checksumOut, incoming.checksum);
      checksumOut.write(incoming.sums);
      checksumOut.flush();
      if (syncOnClose) {
        incoming.streams.syncDataOut();
        incoming.streams.syncChecksumOut();
      }
      incoming.streams.closeDataStream();
      checksumOut.close();
      replica.setNumBytes(block.getNumBytes());
      replica.setLastChecksumAndDataLen(block.getNumBytes(), lastSum(incoming));
      dataset.finalizeBlock(block, syncOnClose);
      return null;
    } catch (IOException e) {
      LOG.warn("Finalizing {} on {} failed", block, node, e);
      return "finalizing " + block.getLocalBlock() + " on target " + node + " failed: " + e;
    }
  }

  private static byte[] lastSum(IncomingBlock incoming) {
    int size = incoming.checksum.getChecksumSize();
    byte[] last = new byte[size];
    if (incoming.sums.length >= size) {
      System.arraycopy(incoming.sums, incoming.sums.length - size, last, 0, size);
    }
    return last;
  }

  /**
   * Deletes a temporary replica that will not be finalized.
   *
   * @return null, or why the temporary replica could not be deleted
   */
  private String discard(IncomingBlock incoming, ReplicaInPipeline replica) {
    if (incoming.streams != null) {
      incoming.streams.close();
    }
    replica.releaseAllBytesReserved();
    try {
      dataset.unfinalizeBlock(incoming.block);
      return null;
    } catch (IOException e) {
      LOG.error("Cannot delete the temporary replica of {} on {}", incoming.block, node, e);
      return "its temporary replica on " + node + " could not be deleted: " + e;
    }
  }
}
