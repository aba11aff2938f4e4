package org.locus.ndcoupling.transfer;

import java.io.IOException;

import org.apache.hadoop.util.DataChecksum;

/**
 * The CRC of every chunk of a block's data, computed as the data streams past in packets of
 * any size, to be compared with the CRCs the source's meta file holds once they arrive after
 * the data.
 */
final class ChunkSums {
  private final DataChecksum sum;
  private final int bytesPerChunk;
  private final int sumSize;
  private final byte[] computed;
  private int chunks;
  private int inChunk;

  /** For a block of {@code length} bytes checksummed as {@code checksum} says. */
  ChunkSums(DataChecksum checksum, long length) {
    this.sum = DataChecksum.newDataChecksum(checksum.getChecksumType(),
        checksum.getBytesPerChecksum());
    this.bytesPerChunk = checksum.getBytesPerChecksum();
    this.sumSize = checksum.getChecksumSize();
    this.computed = new byte[(int) SourceReplica.sumsLength(checksum, length)];
  }

  /** Adds data bytes; the caller never adds more than the block's length. */
  void update(byte[] data, int offset, int length) throws IOException {
    int off = offset;
    int left = length;
    while (left > 0) {
      int n = Math.min(left, bytesPerChunk - inChunk);
      sum.update(data, off, n);
      inChunk += n;
      off += n;
      left -= n;
      if (inChunk == bytesPerChunk) {
        endChunk();
      }
    }
  }

  private void endChunk() throws IOException {
    sum.writeValue(computed, chunks * sumSize, true);
    chunks++;
    inChunk = 0;
  }

  /** @return how many CRC bytes the whole block has */
  int length() {
    return computed.length;
  }

  /**
   * Closes the last, partial chunk and compares every chunk's CRC with {@code expected}.
   *
   * @return the index of the first chunk whose CRC differs, or -1 when all match
   */
  int firstMismatch(byte[] expected) throws IOException {
    if (inChunk > 0) {
      endChunk();
    }
    if (sumSize == 0) {
      return -1;
    }
    for (int chunk = 0; chunk * sumSize < computed.length; chunk++) {
      for (int i = chunk * sumSize; i < (chunk + 1) * sumSize; i++) {
        if (computed[i] != expected[i]) {
          return chunk;
        }
      }
    }
    return -1;
  }

  int bytesPerChunk() {
    return bytesPerChunk;
  }
}
