package org.locus.ndcoupling.fatbtree;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moving one leaf from the node that holds it to another node: the step subtree migration is
 * made of ({@link FatBtreeNode#moveRange}). Runs on the leaf's node, in four steps that keep
 * S_parent ⊇ S_child (seed 004 §4.2.2) at every moment: grow the path's copy sets to the
 * target top down, move the leaf under its latches and its parent's, relink the left
 * neighbour, prune copies the source no longer needs. The latch order is the one in
 * docs/ndcoupling.md, "Fat-Btree".
 */
final class LeafMigration {

  private static final Logger LOG = LoggerFactory.getLogger(LeafMigration.class);

  private final FatBtreeNode node;
  private final long leafId;
  private final int target;

  LeafMigration(FatBtreeNode node, long leafId, int target) {
    this.node = node;
    this.leafId = leafId;
    this.target = target;
  }

  /** Moves the leaf; FOUND when it is on the target, RETRY if this node no longer holds it. */
  LeafReply run() {
    Page page = node.localPage(leafId);
    if (!(page instanceof LeafPage)) {
      return LeafReply.RETRY;
    }
    if (target == node.nodeId()) {
      return LeafReply.found(target);
    }
    PathKey probe = page.lowKey() == null ? PathKey.ROOT : page.lowKey();
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      if (growPath(probe) && moveLeafUnderLatches(probe)) {
        break;
      }
      if (!(node.localPage(leafId) instanceof LeafPage)) {
        node.pruneSurplus(probe, 1, true);
        return LeafReply.RETRY;
      }
      node.pause(attempt, start, probe, "migrateLeaf");
    }
    node.counters().leavesMoved.incrementAndGet();
    LOG.debug("Fat-Btree leaf {} [{}, {}) moved from node {} to node {}", leafId, page.lowKey(),
        page.highKey(), node.nodeId(), target);
    if (page.lowKey() != null) {
      relinkLeftNeighbour(page.lowKey());
    }
    node.pruneSurplus(probe, 1, true);
    return LeafReply.found(target);
  }

  /**
   * Gives every index page on the path to {@code probe} a copy on {@code target}, top down, so
   * that S_parent ⊇ S_child holds at every step: a page gains the node only after its parent
   * has it. False if the tree changed under the walk (the caller tries again).
   */
  private boolean growPath(PathKey probe) {
    RootRef r = node.root();
    for (int level = r.level() - 1; level >= 1; level--) {
      IndexPage page = node.descendTo(probe, level);
      if (page == null) {
        return false;
      }
      if (!page.copies().contains(target) && !addCopy(probe, level)) {
        return false;
      }
    }
    return true;
  }

  /** One step of {@link #growPath}: latch the page (and the target's slot), then its parent. */
  private boolean addCopy(PathKey probe, int level) {
    FatBtreeNode.LatchedPage page = node.latchPageCovering(probe, level, target);
    if (page == null) {
      return false;
    }
    if (page.page.copies().contains(target)) {
      page.release();
      return true;
    }
    FatBtreeNode.LatchedPage parent = node.latchPageCovering(probe, level + 1, -1);
    boolean ok = parent != null && parent.page.copies().contains(target)
        && parent.page.positionOf(page.page.id()) >= 0;
    if (ok) {
      IndexPage grown = page.page.withCopies(page.page.copies().with(target));
      node.writeCopies(grown);
      ChildPointer old = parent.page.children().get(parent.page.positionOf(grown.id()));
      node.writeCopies(parent.page.withChildReplaced(grown.id(),
          new ChildPointer(old.lowKey(), grown.id(), grown.copies())));
    }
    if (parent != null) {
      parent.release();
    }
    page.release();
    return ok;
  }

  /**
   * Moves a leaf once its path is grown: latches the leaf here and its slot on the target (in
   * node order), copies it there, repoints the parent's pointer (all parent copies latched),
   * then drops the copy here. Writers waiting on the leaf here find it gone and start again; a
   * reader still using an old parent copy is answered RETRY here and descends again. False if
   * the parent lacks the target node or the pointer (the caller grows the path again).
   */
  private boolean moveLeafUnderLatches(PathKey probe) {
    NodeSet both = NodeSet.of(node.nodeId(), target);
    for (int n : both.toArray()) {
      node.at(n).latchPage(leafId);
    }
    boolean moved = false;
    try {
      Page page = node.localPage(leafId);
      if (!(page instanceof LeafPage)) {
        return false;
      }
      FatBtreeNode.LatchedPage parent = node.latchPageCovering(probe, 1, -1);
      if (parent == null) {
        return false;
      }
      try {
        int position = parent.page.positionOf(leafId);
        if (position < 0 || !parent.page.copies().contains(target)) {
          return false;
        }
        node.at(target).storePage(((LeafPage) page).onNode(target));
        ChildPointer old = parent.page.children().get(position);
        node.writeCopies(parent.page.withChildReplaced(leafId,
            new ChildPointer(old.lowKey(), leafId, NodeSet.of(target))));
        node.dropPage(leafId);
        moved = true;
      } finally {
        parent.release();
      }
    } finally {
      int[] nodes = both.toArray();
      for (int i = nodes.length - 1; i >= 0; i--) {
        node.at(nodes[i]).releasePage(leafId);
      }
    }
    return moved;
  }

  /**
   * Points the moved leaf's left neighbour at the leaf's new node. The neighbour is latched
   * alone (it is to the left of the moved leaf, so it may not be latched while the moved leaf
   * is); under its latch the leaf's current node is read from the parent, so that of two racing
   * relinks after two moves the later one wins. Until the relink, a scan following the old link
   * finds no leaf and resumes from its last key.
   */
  private void relinkLeftNeighbour(PathKey low) {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      IndexPage parent = node.descendBelow(low, 1);
      if (parent != null) {
        ChildPointer pointer = parent.childBelow(low);
        int holder = FatBtreeNode.leafNode(pointer);
        long id = pointer.pageId();
        node.at(holder).latchPage(id);
        Page page = node.at(holder).fetchPage(id);
        while (page instanceof LeafPage && page.highKey() != null
            && page.highKey().compareTo(low) < 0) {
          SideLink link = page.rightLink();
          node.at(link.nodes().first()).latchPage(link.pageId());
          node.at(holder).releasePage(id);
          holder = link.nodes().first();
          id = link.pageId();
          page = node.at(holder).fetchPage(id);
        }
        try {
          if (page instanceof LeafPage && low.equals(page.highKey())) {
            if (page.rightLink().pageId() == leafId) {
              IndexPage now = node.descendTo(low, 1);
              int current = now != null && now.positionOf(leafId) >= 0
                  ? FatBtreeNode.leafNode(now.childFor(low)) : target;
              if (page.rightLink().nodes().first() != current) {
                node.at(holder).storePage(((LeafPage) page).withRightLink(
                    new SideLink(leafId, NodeSet.of(current))));
              }
            }
            return;
          }
        } finally {
          node.at(holder).releasePage(id);
        }
      }
      node.pause(attempt, start, low, "relinkLeftNeighbour");
    }
  }
}
