package org.locus.kat.rebalance;

import java.util.List;

/**
 * What a rebalance moved.
 *
 * @param hostsBefore owner hosts of the old placement map
 * @param hostsAfter owner hosts now (the live DataNodes)
 * @param bucketsMoved bucket files whose owner changed
 * @param bucketFiles all bucket files
 * @param bytesMoved bytes rewritten onto a new owner
 * @param totalBytes bytes in the dataset
 * @param bucketsRestored bucket files whose owner stayed but had lost its replica of a block
 *     (re-replication after the owner was down), rewritten onto the owner
 */
public record RebalanceReport(List<String> hostsBefore, List<String> hostsAfter,
    int bucketsMoved, int bucketFiles, long bytesMoved, long totalBytes, int bucketsRestored) {

  /** @return moved bytes as a fraction of the dataset */
  public double movedFraction() {
    return totalBytes == 0 ? 0 : (double) bytesMoved / totalBytes;
  }
}
