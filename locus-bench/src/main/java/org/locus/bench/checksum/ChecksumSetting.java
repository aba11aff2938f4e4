package org.locus.bench.checksum;

import org.locus.bench.report.TextTable;

/**
 * One configuration of the checksum bench: how a client writes a file and what checksum chunk
 * HDFS keeps for it.
 *
 * @param replication replicas of the file
 * @param writeBytes bytes the client hands over per {@code write} call (and asks for per
 *     {@code read} call when reading back)
 * @param bufferBytes size of the {@code BufferedOutputStream} (and {@code BufferedInputStream})
 *     wrapped around the HDFS stream, or 0 when the calls go to the HDFS stream directly
 * @param bytesPerChecksum the file's checksum chunk ({@code dfs.bytes-per-checksum})
 */
public record ChecksumSetting(int replication, int writeBytes, int bufferBytes,
    int bytesPerChecksum) {

  public boolean buffered() {
    return bufferBytes > 0;
  }

  /**
   * @return what this configuration is compared with: the same replication and write size,
   *     unbuffered, at HDFS's default 512-byte chunk
   */
  public ChecksumSetting stock() {
    return new ChecksumSetting(replication, writeBytes, 0,
        ChecksumBenchRequest.STOCK_BYTES_PER_CHECKSUM);
  }

  /** @return e.g. {@code r=3 100 B writes, buffered 64.0 KiB, 4096 B/checksum} */
  @Override
  public String toString() {
    return "r=" + replication + " " + writeBytes + " B writes"
        + (buffered() ? ", buffered " + TextTable.bytes(bufferBytes) : "") + ", "
        + bytesPerChecksum + " B/checksum";
  }
}
