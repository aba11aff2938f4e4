package org.locus.ndcoupling.fatbtree.service;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one index node counts of the copies and switches over RPC ({@link CopiedIndexNode}),
 * published by {@link FatBtreeMetrics}. Kept by the node, not by an incarnation, so switches do
 * not reset them.
 */
public final class CopyCounters {
  /** Page writes and drops (and node files) stored here for another incarnation's pages. */
  public final AtomicLong pagesMirrored = new AtomicLong();
  /** Pages this node sent a returning node at step 1, as the holder of its copy. */
  public final AtomicLong pagesShipped = new AtomicLong();
  /** Their bytes (page-file encoding). */
  public final AtomicLong bytesShipped = new AtomicLong();
  /** Incarnations this node started or stopped: its own, or one on a copy it holds. */
  public final AtomicLong switches = new AtomicLong();
  /** Times a switch closed this node's operation gate. */
  public final AtomicLong gateClosures = new AtomicLong();
  /** Times the gate opened by itself because a switch's coordinator did not open it. */
  public final AtomicLong gateLeasesExpired = new AtomicLong();
}
