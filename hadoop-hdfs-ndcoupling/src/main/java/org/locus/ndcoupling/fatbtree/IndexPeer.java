package org.locus.ndcoupling.fatbtree;

import java.util.List;

/**
 * What one Fat-Btree node asks another: the whole wire protocol between nodes. The tree logic in
 * {@link FatBtreeNode} speaks only through this interface (obtained from a {@link PeerTransport}),
 * so a Hadoop RPC implementation can replace the in-process one without touching it.
 *
 * <p>Latches taken through {@link #latchPage} belong to the operation, not to a thread: an RPC
 * implementation may release them from another handler thread.
 */
public interface IndexPeer {

  /** The node answering. */
  int nodeId();

  /** A copy of a page this node holds, or null if it holds none. */
  Page fetchPage(long pageId);

  /**
   * Part of a descent for {@code key} towards {@code level}, done by a node that holds page
   * {@code pageId}: it follows its own copies (children and right links) as far as they go and
   * answers every page it passed, {@code pageId}'s copy first and the deepest page reached
   * last; empty if it holds no copy of {@code pageId}. This is how a node that holds no copies
   * below the root reads the upper pages it lacks: a page fetch, not a forward. The asker
   * continues from the last page and may keep all of them for later descents
   * ({@link FetchedPageCache}).
   */
  List<Page> descendLocally(long pageId, PathKey key, int level);

  /**
   * A lookup forwarded to the node holding the leaf (at most one forward per attempt). Answers
   * {@link LeafReply.Status#RETRY} if the leaf has moved away or the key's range is now on
   * another node, so the asker descends again.
   */
  LeafReply lookupInLeaf(long leafId, PathKey key);

  /**
   * An insert (or, with {@code remove}, a delete) forwarded to the node holding the leaf. That
   * node applies it, splits the leaf if it overflows and carries the split up the tree.
   */
  LeafReply updateInLeaf(long leafId, PathKey key, int owner, boolean remove);

  /**
   * Splits the leaf holding {@code key} so that a leaf starts exactly at {@code key}: the first
   * step of moving a key range. Answers the new (or existing) leaf's id, or RETRY.
   */
  LeafReply splitLeafAt(long leafId, PathKey key);

  /**
   * Moves a leaf held by this node to {@code target}: the leaf keeps its id, range and keys;
   * the pages above it gain copies on {@code target} first. Answers FOUND when the leaf is on
   * {@code target}, RETRY if this node no longer holds it.
   */
  LeafReply migrateLeaf(long leafId, int target);

  /** Takes this node's latch on its copy of a page (waits while another operation holds it). */
  void latchPage(long pageId);

  /** Releases a latch taken with {@link #latchPage}. */
  void releasePage(long pageId);

  /** Stores (creates or replaces) this node's copy of a page: the "apply update" message. */
  void storePage(Page page);

  /** Drops this node's copy of a page. */
  void dropPage(long pageId);

  /** This node's root pointer. */
  RootRef root();

  /** Replaces this node's root pointer (a root split, under the old root's latches). */
  void setRoot(RootRef root);
}
