package org.locus.kat.rebalance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.locus.kat.ingest.LiveDataNodes;
import org.locus.kat.ingest.OwnerReplicas;
import org.locus.kat.placement.BoundedLoadAssignment;
import org.locus.kat.placement.KeyOwnership;
import org.locus.kat.placement.OwnerPaths;
import org.locus.kat.placement.PlacementMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data redistribution module (seed 000 §3.4.3): after DataNodes join or leave, re-derives
 * each bucket's owner from the live DataNodes and rewrites exactly the bucket files whose owner
 * changed onto their new owner. Rendezvous hashing keeps that to about 1/N of the buckets when a
 * node joins, and to the departed node's buckets when one leaves. A bucket file whose owner is
 * unchanged but which has a block without a replica on it (HDFS re-replicated while the owner
 * was down, then deleted the owner's copy as excess when it came back) is rewritten onto its
 * owner the same way: that restores owner locality.
 *
 * <p>Readers never see a bucket twice: a moving bucket is first copied to a hidden file
 * ({@code .bucket-NNNNN.moving}, ignored by input formats) in its new owner's directory; then the
 * old file is deleted and the copy renamed into place; the placement map is rewritten last. A
 * rebalance interrupted between delete and rename leaves the hidden copy, which the next run
 * finishes first. Job output never depends on placement, only locality does.
 */
public final class Rebalancer {
  private static final Logger LOG = LoggerFactory.getLogger(Rebalancer.class);
  private static final String MOVING_SUFFIX = ".moving";

  private final DistributedFileSystem fs;

  public Rebalancer(DistributedFileSystem fs) {
    this.fs = fs;
  }

  public RebalanceReport rebalance(Path dataset) throws IOException {
    PlacementMap before = PlacementMap.read(fs, dataset);
    Map<String, InetSocketAddress> live = LiveDataNodes.of(fs);
    // Datasets imported before declarations existed get theirs here.
    OwnerPaths.declare(fs, dataset);
    finishInterruptedMoves(dataset);
    PlacementMap after = newOwners(dataset, before, new ArrayList<>(live.keySet()));
    KeyOwnership ownership = after.ownership();

    int moved = 0;
    int restored = 0;
    int files = 0;
    long bytesMoved = 0;
    long total = 0;
    for (FileStatus file : bucketFiles(dataset)) {
      files++;
      total += file.getLen();
      String owner = OwnerPaths.ownerOf(file.getPath().toUri().getPath()).orElseThrow();
      int bucket = OwnerPaths.bucketOf(file.getPath()).orElseThrow();
      String newOwner = ownership.ownerOfBucket(bucket);
      boolean lostOwnerReplica = newOwner.equals(owner)
          && !OwnerReplicas.await(fs, file.getPath(), owner, 0);
      if (newOwner.equals(owner) && !lostOwnerReplica) {
        continue;
      }
      Path target = OwnerPaths.bucketFile(dataset, newOwner, bucket);
      Path moving = new Path(target.getParent(), "." + target.getName() + MOVING_SUFFIX);
      copy(file, moving, live.get(newOwner));
      if (!OwnerReplicas.await(fs, moving, newOwner, 30_000)) {
        throw new IOException("the copy of bucket " + bucket + " has no replica on its new"
            + " owner " + newOwner + " after 30 s; the old copy is kept, run the rebalance"
            + " again");
      }
      fs.delete(file.getPath(), false);
      if (!fs.rename(moving, target)) {
        throw new IOException("could not rename " + moving + " to " + target
            + "; run the rebalance again to finish it");
      }
      if (lostOwnerReplica) {
        restored++;
        LOG.info("Rewrote bucket {} ({} bytes) onto its owner {}, which had lost a replica",
            bucket, file.getLen(), owner);
        continue;
      }
      moved++;
      bytesMoved += file.getLen();
      LOG.info("Moved bucket {} ({} bytes) from {} to {}", bucket, file.getLen(), owner,
          newOwner);
    }
    after.write(fs, dataset);
    removeEmptyOwnerDirs(dataset);
    return new RebalanceReport(before.hosts(), after.hosts(), moved, files, bytesMoved, total,
        restored);
  }

  /**
   * Bounded-load owners over the live hosts, sticky: a bucket stays with its owner while that
   * owner is live and no newly joined host is first in the bucket's rendezvous order; the rest
   * (a departed owner's buckets, those a new host wins) are placed along their rendezvous order
   * within the load bound, using the bucket files' sizes.
   */
  private PlacementMap newOwners(Path dataset, PlacementMap before, List<String> liveHosts)
      throws IOException {
    KeyOwnership rendezvous = new KeyOwnership(before.buckets(), liveHosts);
    KeyOwnership old = before.ownership();
    long[] bytes = new long[before.buckets()];
    for (FileStatus file : bucketFiles(dataset)) {
      bytes[OwnerPaths.bucketOf(file.getPath()).orElseThrow()] += file.getLen();
    }
    String[] keep = new String[before.buckets()];
    for (int bucket = 0; bucket < keep.length; bucket++) {
      String owner = old.ownerOfBucket(bucket);
      String winner = rendezvous.preferenceOrder(bucket).get(0);
      if (liveHosts.contains(owner) && before.hosts().contains(winner)) {
        keep[bucket] = owner;
      }
    }
    return new PlacementMap(before.hint(), before.buckets(), liveHosts,
        BoundedLoadAssignment.assign(rendezvous, bytes, keep));
  }

  private void copy(FileStatus source, Path target, InetSocketAddress favored)
      throws IOException {
    try (InputStream in = fs.open(source.getPath());
         OutputStream out = fs.create(target, FsPermission.getFileDefault(), true, 64 * 1024,
             source.getReplication(), source.getBlockSize(), null,
             new InetSocketAddress[] {favored})) {
      IOUtils.copyBytes(in, out, 64 * 1024, false);
    }
  }

  private void finishInterruptedMoves(Path dataset) throws IOException {
    for (FileStatus dir : fs.listStatus(dataset)) {
      if (!dir.isDirectory() || OwnerPaths.ownerOf(dir.getPath().getName()).isEmpty()) {
        continue;
      }
      for (FileStatus file : fs.listStatus(dir.getPath())) {
        String name = file.getPath().getName();
        if (name.startsWith(".") && name.endsWith(MOVING_SUFFIX)) {
          Path finalName = new Path(dir.getPath(),
              name.substring(1, name.length() - MOVING_SUFFIX.length()));
          if (bucketElsewhere(dataset, finalName.getName())) {
            fs.delete(file.getPath(), false);
          } else if (!fs.rename(file.getPath(), finalName)) {
            throw new IOException("could not finish interrupted move of " + file.getPath());
          }
        }
      }
    }
  }

  /** @return whether a bucket file of this name still exists under some owner */
  private boolean bucketElsewhere(Path dataset, String bucketName) throws IOException {
    for (FileStatus file : bucketFiles(dataset)) {
      if (file.getPath().getName().equals(bucketName)) {
        return true;
      }
    }
    return false;
  }

  private List<FileStatus> bucketFiles(Path dataset) throws IOException {
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus dir : fs.listStatus(dataset)) {
      if (!dir.isDirectory() || OwnerPaths.ownerOf(dir.getPath().getName()).isEmpty()) {
        continue;
      }
      for (FileStatus file : fs.listStatus(dir.getPath())) {
        Optional<Integer> bucket = OwnerPaths.bucketOf(file.getPath());
        if (bucket.isPresent() && file.isFile()) {
          files.add(file);
        }
      }
    }
    return files;
  }

  private void removeEmptyOwnerDirs(Path dataset) throws IOException {
    for (FileStatus dir : fs.listStatus(dataset)) {
      if (dir.isDirectory() && OwnerPaths.ownerOf(dir.getPath().getName()).isPresent()
          && fs.listStatus(dir.getPath()).length == 0) {
        fs.delete(dir.getPath(), false);
      }
    }
  }
}
