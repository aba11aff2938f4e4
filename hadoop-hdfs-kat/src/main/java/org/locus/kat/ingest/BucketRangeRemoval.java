package org.locus.kat.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.locus.kat.placement.KeyOwnership;
import org.locus.kat.placement.OwnerPaths;

/**
 * Takes byte ranges back out of a dataset's bucket files: the records of an input that was
 * deleted or rewritten. Each affected bucket file is copied without the ranges to a hidden file
 * beside it, written with the bucket's owner as favored node like every bucket file, checked
 * (length, an owner replica of every block) and renamed over the old file in one step, so a
 * reader sees either the old bucket or the new one. A bucket left empty is deleted.
 *
 * <p>Nothing is replaced until everything is ready: the ranges are checked against the files
 * first (a range past a file's end means the caller's record of the dataset is wrong), then
 * every copy is written and checked, and only then are the copies renamed over their buckets.
 * A failure before that last step changes no bucket.
 */
public final class BucketRangeRemoval {
  private static final String REWRITING_SUFFIX = ".rewriting";

  private final DistributedFileSystem fs;

  public BucketRangeRemoval(DistributedFileSystem fs) {
    this.fs = fs;
  }

  /**
   * @param ranges the ranges to cut; any order, no two overlapping
   * @return bytes removed
   * @throws IOException naming the bucket file when a range does not fit it, its owner is not
   *     live or its copy could not be written; then no bucket was changed
   */
  public long remove(Path dataset, KeyOwnership ownership, List<BucketRange> ranges)
      throws IOException {
    Map<Integer, List<BucketRange>> byBucket = new TreeMap<>();
    for (BucketRange range : ranges) {
      if (range.length() > 0) {
        byBucket.computeIfAbsent(range.bucket(), b -> new ArrayList<>()).add(range);
      }
    }
    Map<String, InetSocketAddress> live = LiveDataNodes.of(fs);
    Map<Integer, FileStatus> files = new TreeMap<>();
    for (Map.Entry<Integer, List<BucketRange>> e : byBucket.entrySet()) {
      int bucket = e.getKey();
      String owner = ownership.ownerOfBucket(bucket);
      Path file = OwnerPaths.bucketFile(dataset, owner, bucket);
      if (!fs.exists(file)) {
        throw new IOException("records to remove lie in " + file + ", which does not exist;"
            + " nothing was removed");
      }
      FileStatus status = fs.getFileStatus(file);
      e.getValue().sort(Comparator.comparingLong(BucketRange::offset));
      long end = 0;
      for (BucketRange range : e.getValue()) {
        if (range.offset() < end || range.end() > status.getLen()) {
          throw new IOException("records to remove at " + range + " do not fit " + file + " ("
              + status.getLen() + " bytes, ranges overlapping or past its end); nothing was"
              + " removed");
        }
        end = range.end();
      }
      if (!live.containsKey(owner)) {
        throw new IOException("owner " + owner + " of " + file + " is not a live DataNode;"
            + " run 'locus kat rebalance' first; nothing was removed");
      }
      files.put(bucket, status);
    }
    // phase 1: every rewritten copy written and checked beside its bucket; a failure here
    // deletes the copies and leaves every bucket as it was
    Map<Path, Path> replacements = new TreeMap<>();
    long removed = 0;
    boolean copied = false;
    try {
      for (Map.Entry<Integer, List<BucketRange>> e : byBucket.entrySet()) {
        FileStatus status = files.get(e.getKey());
        String owner = ownership.ownerOfBucket(e.getKey());
        replacements.put(status.getPath(), rewrite(status, e.getValue(), owner,
            live.get(owner)));
        removed += e.getValue().stream().mapToLong(BucketRange::length).sum();
      }
      copied = true;
    } finally {
      if (!copied) {
        for (Path copy : replacements.values()) {
          if (copy != null) {
            fs.delete(copy, false);
          }
        }
      }
    }
    // phase 2: each copy replaces its bucket in one rename (an emptied bucket is deleted)
    for (Map.Entry<Path, Path> e : replacements.entrySet()) {
      if (e.getValue() == null) {
        fs.delete(e.getKey(), false);
      } else {
        fs.rename(e.getValue(), e.getKey(), Options.Rename.OVERWRITE);
      }
    }
    return removed;
  }

  /** @return the checked copy of the bucket without the ranges; null if nothing is left */
  private Path rewrite(FileStatus status, List<BucketRange> cut, String owner,
      InetSocketAddress favored) throws IOException {
    Path file = status.getPath();
    long keep = status.getLen() - cut.stream().mapToLong(BucketRange::length).sum();
    if (keep == 0) {
      return null;
    }
    Path rewriting = new Path(file.getParent(), "." + file.getName() + REWRITING_SUFFIX);
    boolean done = false;
    try {
      try (InputStream in = fs.open(file);
           OutputStream out = fs.create(rewriting, FsPermission.getFileDefault(), true,
               64 * 1024, status.getReplication(), status.getBlockSize(), null,
               new InetSocketAddress[] {favored})) {
        long at = 0;
        for (BucketRange range : cut) {
          IOUtils.copyBytes(in, out, range.offset() - at, false);
          IOUtils.skipFully(in, range.length());
          at = range.end();
        }
        IOUtils.copyBytes(in, out, status.getLen() - at, false);
      }
      long written = fs.getFileStatus(rewriting).getLen();
      if (written != keep) {
        throw new IOException(rewriting + " holds " + written + " bytes, " + keep + " expected;"
            + " nothing was removed");
      }
      if (!OwnerReplicas.await(fs, rewriting, owner, KatImporter.OWNER_REPLICA_TIMEOUT_MS)) {
        throw new IOException("the rewrite of " + file + " has no replica on its owner " + owner
            + " after " + KatImporter.OWNER_REPLICA_TIMEOUT_MS / 1000 + " s; nothing was"
            + " removed");
      }
      done = true;
      return rewriting;
    } finally {
      if (!done) {
        fs.delete(rewriting, false);
      }
    }
  }
}
