package org.locus.bench.checksum;

/**
 * One measurement of one configuration: writing the file, then reading it back. CPU times are
 * the whole JVM's — the client, every DataNode and the NameNode run in it.
 *
 * @param round the round it was taken in, from 1
 * @param writeNanos wall time from create to close
 * @param writeCpuNanos process CPU time over the same span
 * @param readNanos wall time from open to close, every byte compared
 * @param readCpuNanos process CPU time over the same span
 * @param fileBytesPerChecksum the checksum chunk the DataNodes report for the written file
 */
public record ChecksumSample(int round, long writeNanos, long writeCpuNanos, long readNanos,
    long readCpuNanos, int fileBytesPerChecksum) {
}
