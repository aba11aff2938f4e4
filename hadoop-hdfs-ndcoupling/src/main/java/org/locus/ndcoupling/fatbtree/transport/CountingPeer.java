package org.locus.ndcoupling.fatbtree.transport;

import java.util.List;

import org.locus.ndcoupling.fatbtree.IndexPeer;
import org.locus.ndcoupling.fatbtree.LeafReply;
import org.locus.ndcoupling.fatbtree.NodeCounters;
import org.locus.ndcoupling.fatbtree.Page;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.RootRef;

/** A peer seen through the in-process transport: every request counts as one message received. */
final class CountingPeer implements IndexPeer {

  private final IndexPeer target;
  private final NodeCounters counters;

  CountingPeer(IndexPeer target, NodeCounters counters) {
    this.target = target;
    this.counters = counters;
  }

  private IndexPeer received() {
    counters.messagesReceived.incrementAndGet();
    return target;
  }

  @Override
  public int nodeId() {
    return target.nodeId();
  }

  @Override
  public Page fetchPage(long pageId) {
    return received().fetchPage(pageId);
  }

  @Override
  public List<Page> descendLocally(long pageId, PathKey key, int level) {
    return received().descendLocally(pageId, key, level);
  }

  @Override
  public LeafReply lookupInLeaf(long leafId, PathKey key) {
    return received().lookupInLeaf(leafId, key);
  }

  @Override
  public LeafReply updateInLeaf(long leafId, PathKey key, int owner, boolean remove) {
    return received().updateInLeaf(leafId, key, owner, remove);
  }

  @Override
  public LeafReply splitLeafAt(long leafId, PathKey key) {
    return received().splitLeafAt(leafId, key);
  }

  @Override
  public LeafReply migrateLeaf(long leafId, int target) {
    return received().migrateLeaf(leafId, target);
  }

  @Override
  public void latchPage(long pageId) {
    received().latchPage(pageId);
  }

  @Override
  public void releasePage(long pageId) {
    received().releasePage(pageId);
  }

  @Override
  public void storePage(Page page) {
    received().storePage(page);
  }

  @Override
  public void dropPage(long pageId) {
    received().dropPage(pageId);
  }

  @Override
  public RootRef root() {
    return received().root();
  }

  @Override
  public void setRoot(RootRef root) {
    received().setRoot(root);
  }
}
