package org.locus.ndcoupling.fatbtree;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * One node's latches on its page copies: exclusive, writers only (readers never latch, they read
 * immutable page values). A latch is a one-permit semaphore rather than a lock so that it belongs
 * to an operation, not a thread: over RPC the latch and its release may arrive on different
 * handler threads. The order in which latches are taken is the protocol in docs/ndcoupling.md.
 */
final class PageLatches {

  private final Map<Long, Semaphore> latches = new ConcurrentHashMap<>();

  void acquire(long pageId) {
    latches.computeIfAbsent(pageId, id -> new Semaphore(1)).acquireUninterruptibly();
  }

  void release(long pageId) {
    Semaphore latch = latches.get(pageId);
    if (latch == null) {
      throw new IllegalStateException("release of page " + pageId + " which was never latched");
    }
    latch.release();
  }
}
