package org.locus.ndcoupling.transfer;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.apache.hadoop.util.DataChecksum;

/**
 * A finalized replica on the source, opened to be sent: its data stream, the header of its meta
 * file and every chunk's CRC from that file, read before anything goes on the wire so that a
 * replica that is missing, stale, short or without checksums fails before the target is asked.
 * The CRCs are the ones written when the block was first stored, so the target's check covers
 * the source's disk, both DataNodes and the wire.
 */
final class SourceReplica implements Closeable {
  private final ExtendedBlock block;
  private final DataChecksum checksum;
  private final byte[] sums;
  private final StorageType storageType;
  private final InputStream data;

  private SourceReplica(ExtendedBlock block, DataChecksum checksum, byte[] sums,
      StorageType storageType, InputStream data) {
    this.block = block;
    this.checksum = checksum;
    this.sums = sums;
    this.storageType = storageType;
    this.data = data;
  }

  /**
   * Opens the replica of {@code push} in block pool {@code blockPoolId}.
   *
   * @param node the source DataNode's name, for messages
   * @throws SourceReplicaException naming the block and the node when the replica cannot be
   *     sent as asked
   * @throws IOException when reading the replica fails
   */
  static SourceReplica open(FsDatasetSpi<?> dataset, String blockPoolId, BlockPush push,
      String node) throws IOException {
    ExtendedBlock block = new ExtendedBlock(blockPoolId, push.blockId(), push.numBytes(),
        push.generationStamp());
    Block stored;
    try {
      stored = dataset.getStoredBlock(blockPoolId, push.blockId());
    } catch (ReplicaNotFoundException e) {
      stored = null;
    }
    if (stored == null) {
      throw new SourceReplicaException("source " + node + " holds no replica of "
          + push.blockName() + " in block pool " + blockPoolId);
    }
    if (stored.getGenerationStamp() != push.generationStamp()) {
      throw new SourceReplicaException("source " + node + " holds " + push.blockName()
          + " with generation stamp " + stored.getGenerationStamp() + ", not the pushed "
          + push.generationStamp() + " (stale)");
    }
    if (!dataset.isValidBlock(block)) {
      throw new SourceReplicaException("the replica of " + push.blockName() + " on source "
          + node + " is not finalized: " + dataset.getReplicaString(blockPoolId,
              push.blockId()));
    }
    long length = dataset.getLength(block);
    if (length != push.numBytes()) {
      throw new SourceReplicaException("the replica of " + push.blockName() + " on source "
          + node + " has " + length + " bytes, the push names " + push.numBytes());
    }
    FsVolumeSpi volume = dataset.getVolume(block);
    StorageType type = volume == null ? StorageType.DEFAULT : volume.getStorageType();

    DataChecksum checksum;
    byte[] sums;
    LengthInputStream meta = dataset.getMetaDataInputStream(block);
    if (meta == null) {
      throw new SourceReplicaException("the replica of " + push.blockName() + " on source "
          + node + " has no meta file (no checksums to send)");
    }
    try (DataInputStream metaIn = new DataInputStream(meta)) {
      checksum = BlockMetadataHeader.readHeader(metaIn).getChecksum();
      long expected = sumsLength(checksum, length);
      long present = meta.getLength() - BlockMetadataHeader.getHeaderSize();
      if (present < expected) {
        throw new SourceReplicaException("the meta file of " + push.blockName() + " on source "
            + node + " holds " + present + " checksum bytes, " + length + " data bytes need "
            + expected);
      }
      sums = new byte[(int) expected];
      metaIn.readFully(sums);
    }
    InputStream data = dataset.getBlockInputStream(block, 0);
    return new SourceReplica(block, checksum, sums, type, data);
  }

  /** @return how many CRC bytes {@code length} data bytes have under {@code checksum} */
  static long sumsLength(DataChecksum checksum, long length) {
    int perChunk = checksum.getBytesPerChecksum();
    return (length + perChunk - 1) / perChunk * checksum.getChecksumSize();
  }

  ExtendedBlock block() {
    return block;
  }

  DataChecksum checksum() {
    return checksum;
  }

  byte[] sums() {
    return sums;
  }

  StorageType storageType() {
    return storageType;
  }

  InputStream data() {
    return data;
  }

  @Override
  public void close() throws IOException {
    data.close();
  }

  /** The source cannot send a block as the push asked; the message names block and node. */
  static final class SourceReplicaException extends IOException {
    SourceReplicaException(String message) {
      super(message);
    }
  }
}
