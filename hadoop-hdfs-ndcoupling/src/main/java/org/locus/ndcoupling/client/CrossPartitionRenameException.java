package org.locus.ndcoupling.client;

import java.io.IOException;

/**
 * A rename whose source and destination belong to different partitions of the coupled
 * namespace. Each partition is its own HDFS namespace with its own block pool, so a rename
 * cannot move a file between them; it is refused before anything changes. Thrown by the
 * mount-table client ({@link LocusFileSystem}) and the Fat-Btree one
 * ({@code fatbtree.client.FatBtreeFileSystem}).
 */
public final class CrossPartitionRenameException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String sourcePartition;
  private final String destinationPartition;

  CrossPartitionRenameException(String src, String srcMount, String sourcePartition, String dst,
      String dstMount, String destinationPartition) {
    this(src, dst, src, sourcePartition, "mount point " + srcMount, dst, destinationPartition,
        "mount point " + dstMount);
  }

  /**
   * A refused rename of {@code src} to {@code dst} because {@code what} is on
   * {@code sourcePartition} and {@code other} on {@code destinationPartition}; {@code whatWhy}
   * and {@code otherWhy} say what decided each partition (a mount point, an index entry).
   * {@code what} and {@code other} are normally {@code src} and {@code dst}; a directory whose
   * subtree holds a path of another partition names that path as {@code other}.
   */
  public CrossPartitionRenameException(String src, String dst, String what,
      String sourcePartition, String whatWhy, String other, String destinationPartition,
      String otherWhy) {
    super("rename " + src + " to " + dst + " crosses partitions: " + what + " is on partition "
        + sourcePartition + " (" + whatWhy + "), " + other + " on partition "
        + destinationPartition + " (" + otherWhy + "); a rename cannot move data"
        + " between partitions, nothing was changed; copy and delete instead (-cp, then -rm)");
    this.sourcePartition = sourcePartition;
    this.destinationPartition = destinationPartition;
  }

  public String sourcePartition() {
    return sourcePartition;
  }

  public String destinationPartition() {
    return destinationPartition;
  }
}
