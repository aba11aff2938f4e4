package org.apache.hadoop.hdfs.server.datanode;

import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/**
 * The package-private {@link DataNode} members NDCouplingHDFS's batch transfer uses, reached
 * from Hadoop's own package (a split package; no Hadoop class is replaced). Stateless.
 */
public final class NdCouplingDataNodeAccess {
  private NdCouplingDataNodeAccess() {
  }

  /** @return whether {@code dataNode} serves block pool {@code blockPoolId} (has its actor) */
  public static boolean servesBlockPool(DataNode dataNode, String blockPoolId) {
    return dataNode.getBPOfferService(blockPoolId) != null;
  }

  /**
   * Reports a block the batch transfer has finalized as a DataNode-to-DataNode write does: the
   * DataNode's BlocksWritten metric, and a RECEIVED_BLOCK entry with {@code delHint} in the next
   * incremental block report, from which the NameNode adds this node to the block's locations
   * and, when the block is now over-replicated, prefers to delete the hinted node's replica (as
   * for the Balancer's moves).
   */
  public static void blockReceived(DataNode dataNode, ExtendedBlock block, String delHint,
      String storageUuid, boolean onTransientStorage) {
    dataNode.closeBlock(block, delHint, storageUuid, onTransientStorage);
  }
}
