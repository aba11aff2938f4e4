package org.locus.kat.ingest;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.kat.placement.KeyOwnership;
import org.locus.kat.placement.OwnerPaths;

/**
 * Creates a dataset's bucket files with the bucket's owner as HDFS favored node, so the first
 * replica of every block lands on the owner and the rest follow HDFS's normal rules.
 */
final class BucketFiles {
  private final DistributedFileSystem fs;
  private final Path dataset;
  private final KeyOwnership ownership;
  private final Map<String, InetSocketAddress> transferAddressOfHost;
  private final short replication;
  private final long blockSize;

  BucketFiles(DistributedFileSystem fs, Path dataset, KeyOwnership ownership,
      Map<String, InetSocketAddress> transferAddressOfHost, short replication, long blockSize) {
    this.fs = fs;
    this.dataset = dataset;
    this.ownership = ownership;
    this.transferAddressOfHost = transferAddressOfHost;
    this.replication = replication;
    this.blockSize = blockSize;
  }

  FSDataOutputStream create(int bucket) throws IOException {
    String owner = ownership.ownerOfBucket(bucket);
    InetSocketAddress favored = transferAddressOfHost.get(owner);
    if (favored == null) {
      throw new IOException("owner " + owner + " of bucket " + bucket + " is not a live"
          + " DataNode");
    }
    Path file = OwnerPaths.bucketFile(dataset, owner, bucket);
    return fs.create(file, FsPermission.getFileDefault().applyUMask(
        FsPermission.getUMask(fs.getConf())), false, 64 * 1024, replication, blockSize, null,
        new InetSocketAddress[] {favored});
  }
}
