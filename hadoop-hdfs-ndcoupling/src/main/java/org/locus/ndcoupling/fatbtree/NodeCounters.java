package org.locus.ndcoupling.fatbtree;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Plain counters of one node's index work, read directly by tests and benches and published as
 * Hadoop metrics by {@code service.FatBtreeMetrics}.
 */
public final class NodeCounters {

  /** Lookups started at this node. */
  public final AtomicLong lookups = new AtomicLong();
  /** Lookups and updates this node forwarded to the node holding the leaf. */
  public final AtomicLong forwards = new AtomicLong();
  /** Requests this node sent to other nodes (forwards, page fetches, updates, latches). */
  public final AtomicLong messagesSent = new AtomicLong();
  /** Requests other nodes sent to this node. */
  public final AtomicLong messagesReceived = new AtomicLong();
  /**
   * Pages this node read from another node: index pages it holds no copy of (one message may
   * bring the deepest of several, {@link IndexPeer#descendLocally}), and the leaves a scan
   * started here reads.
   */
  public final AtomicLong pageFetches = new AtomicLong();
  /**
   * Pages a lookup's descent (first attempt) read from the cache of fetched copies instead of
   * asking another node ({@code FetchedPageCache}).
   */
  public final AtomicLong pageCacheHits = new AtomicLong();
  /** Pages such a descent lacked, here and in the cache (each then one page fetch). */
  public final AtomicLong pageCacheMisses = new AtomicLong();
  /** Cached copies dropped because a descent found them older than a split, move or prune. */
  public final AtomicLong pageCacheDrops = new AtomicLong();
  /** Descents started again because the tree changed under them (moves, stale copies). */
  public final AtomicLong retries = new AtomicLong();
  /** Leaf splits done by this node. */
  public final AtomicLong leafSplits = new AtomicLong();
  /** Index page splits done by this node (including root splits). */
  public final AtomicLong indexSplits = new AtomicLong();
  /** Leaves this node moved away. */
  public final AtomicLong leavesMoved = new AtomicLong();

  @Override
  public String toString() {
    return "lookups=" + lookups + " forwards=" + forwards + " sent=" + messagesSent
        + " received=" + messagesReceived + " fetches=" + pageFetches
        + " cacheHits=" + pageCacheHits + " cacheMisses=" + pageCacheMisses
        + " cacheDrops=" + pageCacheDrops + " retries=" + retries
        + " leafSplits=" + leafSplits + " indexSplits=" + indexSplits + " moved=" + leavesMoved;
  }
}
