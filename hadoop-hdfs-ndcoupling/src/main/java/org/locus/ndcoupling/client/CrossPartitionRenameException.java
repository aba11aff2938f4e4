package org.locus.ndcoupling.client;

import java.io.IOException;

/**
 * A rename whose source and destination belong to different partitions of the coupled
 * namespace. Each partition is its own HDFS namespace with its own block pool, so a rename
 * cannot move a file between them; it is refused before anything changes.
 */
public final class CrossPartitionRenameException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String sourcePartition;
  private final String destinationPartition;

  CrossPartitionRenameException(String src, String srcMount, String sourcePartition, String dst,
      String dstMount, String destinationPartition) {
    super("rename " + src + " to " + dst + " crosses partitions: " + src + " is on partition "
        + sourcePartition + " (mount point " + srcMount + "), " + dst + " on partition "
        + destinationPartition + " (mount point " + dstMount + "); a rename cannot move data"
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
