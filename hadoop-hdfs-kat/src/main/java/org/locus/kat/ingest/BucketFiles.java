package org.locus.kat.ingest;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.kat.placement.KeyOwnership;
import org.locus.kat.placement.OwnerPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a dataset's bucket files with the bucket's owner as HDFS favored node, so the first
 * replica of every block lands on the owner (and is pinned there where DataNodes pin) and the
 * rest follow HDFS's normal rules.
 *
 * <p>An import creates every file. An append ({@link #appending}) continues an existing bucket
 * file from its end, or creates it if the bucket had no records yet, and remembers what each
 * file held before, so {@link #rollBack()} can return the dataset to exactly that: appended
 * files truncated to their old length, created ones deleted.
 */
final class BucketFiles {
  private static final Logger LOG = LoggerFactory.getLogger(BucketFiles.class);

  private final DistributedFileSystem fs;
  private final Path dataset;
  private final KeyOwnership ownership;
  private final Map<String, InetSocketAddress> transferAddressOfHost;
  private final short replication;
  private final long blockSize;
  private final boolean append;
  /** Bucket file → its length before this append; -1 for a file the append created. */
  private final Map<Path, Long> lengthBefore = new TreeMap<>();

  BucketFiles(DistributedFileSystem fs, Path dataset, KeyOwnership ownership,
      Map<String, InetSocketAddress> transferAddressOfHost, short replication, long blockSize) {
    this(fs, dataset, ownership, transferAddressOfHost, replication, blockSize, false);
  }

  private BucketFiles(DistributedFileSystem fs, Path dataset, KeyOwnership ownership,
      Map<String, InetSocketAddress> transferAddressOfHost, short replication, long blockSize,
      boolean append) {
    this.fs = fs;
    this.dataset = dataset;
    this.ownership = ownership;
    this.transferAddressOfHost = transferAddressOfHost;
    this.replication = replication;
    this.blockSize = blockSize;
    this.append = append;
  }

  /** Bucket files of an existing dataset, continued from their ends. */
  static BucketFiles appending(DistributedFileSystem fs, Path dataset, KeyOwnership ownership,
      Map<String, InetSocketAddress> transferAddressOfHost, short replication, long blockSize) {
    return new BucketFiles(fs, dataset, ownership, transferAddressOfHost, replication,
        blockSize, true);
  }

  private static final long TRUNCATE_WAIT_MS = 60_000;

  FSDataOutputStream create(int bucket) throws IOException {
    String owner = ownership.ownerOfBucket(bucket);
    InetSocketAddress favored = transferAddressOfHost.get(owner);
    if (favored == null) {
      throw new IOException("owner " + owner + " of bucket " + bucket + " is not a live"
          + " DataNode");
    }
    InetSocketAddress[] favoredNodes = {favored};
    Path file = OwnerPaths.bucketFile(dataset, owner, bucket);
    if (append) {
      FileStatus existing = fs.exists(file) ? fs.getFileStatus(file) : null;
      if (existing != null) {
        lengthBefore.put(file, existing.getLen());
        return fs.append(file, EnumSet.of(CreateFlag.APPEND), 64 * 1024, null, favoredNodes);
      }
      lengthBefore.put(file, -1L);
    }
    return fs.create(file, FsPermission.getFileDefault().applyUMask(
        FsPermission.getUMask(fs.getConf())), false, 64 * 1024, replication, blockSize, null,
        favoredNodes);
  }

  /** @return each file this append opened and its length before; -1: created by it */
  Map<Path, Long> lengthsBefore() {
    return lengthBefore;
  }

  /**
   * Undoes an append whose streams are closed: appended files back to their old length,
   * created files deleted. A cut inside a block is finished by HDFS block recovery, during
   * which readers would still see the replica's longer length; this waits (up to
   * {@value #TRUNCATE_WAIT_MS} ms a file) until each such file is closed again. Every file is
   * cut before the first wait, so their recoveries run side by side rather than one after
   * another (each takes a DataNode heartbeat or more).
   */
  void rollBack() throws IOException {
    IOException first = null;
    List<Path> recovering = new ArrayList<>();
    for (Map.Entry<Path, Long> e : lengthBefore.entrySet()) {
      try {
        if (e.getValue() < 0) {
          fs.delete(e.getKey(), false);
        } else if (fs.getFileStatus(e.getKey()).getLen() != e.getValue()
            && !fs.truncate(e.getKey(), e.getValue())) {
          recovering.add(e.getKey());
        }
      } catch (IOException ex) {
        LOG.error("Could not roll back {} to {} bytes", e.getKey(), e.getValue(), ex);
        if (first == null) {
          first = ex;
        }
      }
    }
    for (Path file : recovering) {
      try {
        awaitClosed(file);
      } catch (IOException ex) {
        LOG.error("Could not roll back {} to {} bytes", file, lengthBefore.get(file), ex);
        if (first == null) {
          first = ex;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private void awaitClosed(Path file) throws IOException {
    long deadline = System.currentTimeMillis() + TRUNCATE_WAIT_MS;
    while (!fs.isFileClosed(file)) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(file + " is still being truncated back to its length before the"
            + " append after " + TRUNCATE_WAIT_MS / 1000 + " s");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted rolling back " + file);
      }
    }
  }
}
