package org.locus.ndcoupling.fatbtree;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.locus.ndcoupling.fatbtree.store.NodeFile;
import org.locus.ndcoupling.fatbtree.store.PageDirectory;
import org.locus.ndcoupling.fatbtree.store.PageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's part of a Fat-Btree (seed 004 §4.2.2, Fig. 3): its page copies, the operations
 * clients start here, and the requests it serves for the other nodes ({@link IndexPeer}).
 *
 * <p>Placement of pages: the root is on every node; a leaf is on exactly one node; an index
 * page is on every node that holds a page below it (S_parent ⊇ S_child). A leaf split keeps
 * both halves on the leaf's node; an index split gives the new right half exactly the nodes of
 * its children; only {@link #moveRange} (one {@link LeafMigration} per leaf) changes where
 * existing pages live.
 *
 * <p>Lookups start from this node's own copy of the root and descend through local copies of
 * the upper pages; where this node holds no copy of a page (none of its leaves are below it) it
 * asks a node that holds one to descend as far as its own copies go, and it forwards the
 * request once, to the node holding the leaf. The upper pages it was sent it keeps in a bounded
 * {@link FetchedPageCache}, so that later lookups through them need no message; a lookup reads
 * cached copies on its first attempt only and drops those it finds stale. The concurrency
 * protocol (readers never latch; writers latch bottom-up, left to right, copies in node order;
 * lazy deletion, no merges) is written down in docs/ndcoupling.md, "Fat-Btree".
 *
 * <p>With copies ({@link NodeCopies}) this object is one <em>incarnation</em> of a node id: on
 * the node itself, or on the next node of the ring serving for it while it is off. Client
 * operations pass an {@link OperationGate} that a switch of incarnations closes.
 */
public final class FatBtreeNode implements IndexPeer {

  private static final Logger LOG = LoggerFactory.getLogger(FatBtreeNode.class);

  /** Page ids made by {@link #format}; a node's own ids start at (node + 1) shifted by this. */
  private static final int ID_SPACE_BITS = 40;
  private static final long FORMAT_ROOT_ID = 1;
  private static final long ID_RESERVATION = 1024;
  /** A descent that has not settled after this long is a bug, not contention. */
  private static final long SETTLE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

  private final int nodeId;
  private final PageStore store;
  private final PeerTransport transport;
  private final FatBtreeOptions options;
  private final PageLatches latches = new PageLatches();
  private final NodeCounters counters = new NodeCounters();
  private final FetchedPageCache fetchedPages;
  private final OperationGate gate;
  private final Object nodeFileLock = new Object();
  private volatile boolean stopped;
  private volatile RootRef root;
  private long nextSeq;
  private long seqReservedTo;

  private FatBtreeNode(int nodeId, PageStore store, PeerTransport transport,
      FatBtreeOptions options, NodeFile file, OperationGate gate) {
    this.nodeId = nodeId;
    this.gate = gate;
    this.store = store;
    this.transport = transport;
    this.options = options;
    this.fetchedPages = new FetchedPageCache(options.cachedPages());
    this.root = file.root();
    this.nextSeq = file.idsReservedTo();
    this.seqReservedTo = file.idsReservedTo();
  }

  /**
   * Formats one node's directory as part of a new tree: a root on every node above one leaf per
   * range, leaf i on node {@code nodes[i % n]}. Every node computes the same pages, so each node
   * can be formatted on its own, like {@code hdfs namenode -format}.
   *
   * @param boundaries the low keys of the second and later leaves, ascending
   */
  public static void format(PageStore store, int nodeId, NodeSet nodes,
      List<PathKey> boundaries) throws IOException {
    if (!nodes.contains(nodeId)) {
      throw new IllegalArgumentException("node " + nodeId + " is not one of " + nodes);
    }
    if (store.nodeFile() != null || store.size() > 0) {
      throw new IOException("refusing to format " + store.describe()
          + ": it already holds a Fat-Btree node");
    }
    int[] ids = nodes.toArray();
    int leaves = boundaries.size() + 1;
    List<ChildPointer> children = new ArrayList<>();
    for (int i = 0; i < leaves; i++) {
      PathKey low = i == 0 ? null : boundaries.get(i - 1);
      PathKey high = i == leaves - 1 ? null : boundaries.get(i);
      if (low != null && high != null && low.compareTo(high) >= 0) {
        throw new IllegalArgumentException("leaf boundaries must ascend: " + boundaries);
      }
      int node = ids[i % ids.length];
      long leafId = FORMAT_ROOT_ID + 1 + i;
      children.add(new ChildPointer(low, leafId, NodeSet.of(node)));
      SideLink link = high == null ? null
          : new SideLink(leafId + 1, NodeSet.of(ids[(i + 1) % ids.length]));
      if (node == nodeId) {
        store.put(LeafPage.empty(leafId, low, high, node, link));
      }
    }
    store.put(new IndexPage(FORMAT_ROOT_ID, 1, null, null, nodes, null, children));
    store.putNodeFile(new NodeFile(nodeId, new RootRef(FORMAT_ROOT_ID, 1), 0));
  }

  /** {@link #format(PageStore, int, NodeSet, List)} into a node directory. */
  public static void format(Path dir, int nodeId, NodeSet nodes, List<PathKey> boundaries,
      FatBtreeOptions options) throws IOException {
    format(PageDirectory.open(dir, options.syncWrites()), nodeId, nodes, boundaries);
  }

  /**
   * Opens a formatted node directory: every page file is read and checked.
   *
   * @throws org.locus.ndcoupling.fatbtree.store.CorruptPageException naming a bad page file
   */
  public static FatBtreeNode open(Path dir, int nodeId, PeerTransport transport,
      FatBtreeOptions options) throws IOException {
    return open(PageDirectory.open(dir, options.syncWrites()), nodeId, transport, options);
  }

  /** Starts a node on a formatted store (a restart, if the node ran on it before). */
  public static FatBtreeNode open(PageStore store, int nodeId, PeerTransport transport,
      FatBtreeOptions options) throws IOException {
    return open(store, nodeId, transport, options, OperationGate.OPEN);
  }

  /**
   * Starts a node whose client operations pass {@code gate}: one incarnation of a node that
   * {@link NodeCopies} switches between its own pages and their copy.
   */
  public static FatBtreeNode open(PageStore store, int nodeId, PeerTransport transport,
      FatBtreeOptions options, OperationGate gate) throws IOException {
    NodeFile file = store.nodeFile();
    if (file == null) {
      throw new IOException(store.describe() + " is not a formatted Fat-Btree node (no node"
          + " file); format it first");
    }
    if (file.nodeId() != nodeId) {
      throw new IOException(store.describe() + " belongs to node " + file.nodeId() + ", not "
          + nodeId);
    }
    return new FatBtreeNode(nodeId, store, transport, options, file, gate);
  }

  // ------------------------------------------------------------------------------------------
  // Client operations, started at this node

  /** The owner a path maps to, if the path is in the index. */
  public OptionalInt lookup(PathKey key) {
    try (OperationGate.Pass pass = enter()) {
      return lookupPassed(key);
    }
  }

  private OptionalInt lookupPassed(PathKey key) {
    counters.lookups.incrementAndGet();
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      ChildPointer leaf = leafPointer(key, attempt == 0);
      if (leaf != null) {
        LeafReply reply = leafNode(leaf) == nodeId ? lookupInLeaf(leaf.pageId(), key)
            : forward(leafNode(leaf)).lookupInLeaf(leaf.pageId(), key);
        if (reply.status() == LeafReply.Status.FOUND) {
          return OptionalInt.of((int) reply.value());
        }
        if (reply.status() == LeafReply.Status.ABSENT) {
          return OptionalInt.empty();
        }
      }
      pause(attempt, start, key, "lookup");
    }
  }

  /** Maps a path to an owner; answers the previous owner, if any. */
  public OptionalInt put(PathKey key, int owner) {
    LeafReply reply = update(key, owner, false);
    return reply.status() == LeafReply.Status.FOUND ? OptionalInt.of((int) reply.value())
        : OptionalInt.empty();
  }

  /** Removes a path from the index (lazily: leaves are never merged); whether it was there. */
  public boolean remove(PathKey key) {
    return update(key, -1, true).status() == LeafReply.Status.FOUND;
  }

  /**
   * The entries with keys in [from, toExclusive) in key order (null: to the end), read leaf by
   * leaf along the right links. Each leaf is read as one consistent value; the scan as a whole
   * is not a snapshot of the tree.
   */
  public List<IndexEntry> scan(PathKey from, PathKey toExclusive) {
    try (OperationGate.Pass pass = enter()) {
      return scanPassed(from, toExclusive);
    }
  }

  private List<IndexEntry> scanPassed(PathKey from, PathKey toExclusive) {
    List<IndexEntry> out = new ArrayList<>();
    PathKey next = from;
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      ChildPointer pointer = leafPointer(next, attempt == 0);
      if (pointer != null) {
        long id = pointer.pageId();
        int node = leafNode(pointer);
        while (true) {
          Page page = node == nodeId ? store.get(id) : fetch(node, id);
          if (!(page instanceof LeafPage) || !PathKey.atOrAbove(next, page.lowKey())) {
            break;
          }
          LeafPage leaf = (LeafPage) page;
          if (leaf.isPastHighKey(next)) {
            id = leaf.rightLink().pageId();
            node = leaf.rightLink().nodes().first();
            continue;
          }
          int i = leaf.search(next);
          for (i = i >= 0 ? i : -i - 1; i < leaf.size(); i++) {
            if (!PathKey.below(leaf.keyAt(i), toExclusive)) {
              return out;
            }
            out.add(new IndexEntry(leaf.keyAt(i), leaf.ownerAt(i)));
          }
          if (leaf.highKey() == null || !PathKey.below(leaf.highKey(), toExclusive)) {
            return out;
          }
          next = leaf.highKey();
          id = leaf.rightLink().pageId();
          node = leaf.rightLink().nodes().first();
        }
      }
      pause(attempt, start, next, "scan");
    }
  }

  /** Every entry of a directory's subtree (the directory itself included) in key order. */
  public List<IndexEntry> scanSubtree(PathKey dir) {
    return scan(dir, dir.subtreeEnd());
  }

  /**
   * The node holding the leaf that covers {@code key}: where a lookup of it is answered. Read
   * without the cache of fetched pages, whose copies may name a leaf's node before a move, since
   * nothing here asks the leaf's node to confirm it.
   */
  public int leafNodeOf(PathKey key) {
    try (OperationGate.Pass pass = enter()) {
      return leafNodeOfPassed(key);
    }
  }

  private int leafNodeOfPassed(PathKey key) {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      ChildPointer pointer = leafPointer(key, false);
      if (pointer != null) {
        return leafNode(pointer);
      }
      pause(attempt, start, key, "leafNodeOf");
    }
  }

  /**
   * Moves the leaves covering [from, toExclusive) to {@code target} (subtree migration): the
   * leaves at both ends are first split so that the range is whole leaves, then each leaf moves
   * with its id, range and keys; the index pages above gain copies on the target and, where the
   * source no longer holds anything below them, lose the source's copy. Concurrent operations
   * go on during the move; each leaf is moved under its latches.
   */
  public void moveRange(PathKey from, PathKey toExclusive, int target) {
    try (OperationGate.Pass pass = enter()) {
      moveRangePassed(from, toExclusive, target);
    }
  }

  private void moveRangePassed(PathKey from, PathKey toExclusive, int target) {
    if (!transport.nodes().contains(target)) {
      throw new IllegalArgumentException("node " + target + " is not in the tree " + transport
          .nodes());
    }
    splitAt(from);
    if (toExclusive != null) {
      splitAt(toExclusive);
    }
    PathKey next = from;
    long start = System.nanoTime();
    int attempt = 0;
    while (next != null && PathKey.below(next, toExclusive)) {
      ChildPointer pointer = leafPointer(next, attempt == 0);
      if (pointer != null && leafNode(pointer) != target) {
        LeafReply reply = at(leafNode(pointer)).migrateLeaf(pointer.pageId(), target);
        if (reply.status() != LeafReply.Status.FOUND) {
          pointer = null;
        }
      }
      Page moved = pointer == null ? null : readCopy(pointer.pageId(), NodeSet.of(target));
      if (moved instanceof LeafPage && moved.covers(next)) {
        next = moved.highKey();
        attempt = 0;
      } else {
        pause(attempt++, start, next, "moveRange");
      }
    }
  }

  /** Moves a directory and everything below it to {@code target}. */
  public void moveSubtree(PathKey dir, int target) {
    moveRange(dir, dir.subtreeEnd(), target);
  }

  /**
   * Stops this incarnation's client operations (under a closed {@link OperationGate}): the node
   * is switched off, or its copy hands it back. An operation started here afterwards fails
   * with {@link IncarnationStoppedException}; the caller asks the node's current incarnation.
   * Whoever switches incarnations ({@link NodeCopies}, or a node over RPC) calls it.
   */
  public void stop() {
    stopped = true;
  }

  /** Passes the gate; refuses, passing nothing, once this incarnation was stopped. */
  private OperationGate.Pass enter() {
    OperationGate.Pass pass = gate.enter();
    if (stopped) {
      pass.close();
      throw new IncarnationStoppedException(nodeId, store.describe());
    }
    return pass;
  }

  /** This node's id. */
  @Override
  public int nodeId() {
    return nodeId;
  }

  /** This node's counters. */
  public NodeCounters counters() {
    return counters;
  }

  /** How many fetched copies of other nodes' pages this node keeps now. */
  public int cachedPageCount() {
    return fetchedPages.size();
  }

  /** This node's cached copy of another node's page, or null (for tests of staleness). */
  IndexPage cachedCopy(long pageId) {
    return fetchedPages.get(pageId);
  }

  /** The most fetched copies this node keeps. */
  public int cachedPageCapacity() {
    return fetchedPages.capacity();
  }

  /** Every page copy this node holds (for the verifier and for shipping pages). */
  public Collection<Page> pageCopies() {
    return store.all();
  }

  /** This node's copy of a page, or null. */
  Page localPage(long pageId) {
    return store.get(pageId);
  }

  /** Where this node keeps its pages. */
  public String storeDescription() {
    return store.describe();
  }

  // ------------------------------------------------------------------------------------------
  // Requests served for other nodes (and for this one)

  @Override
  public Page fetchPage(long pageId) {
    return store.get(pageId);
  }

  @Override
  public List<Page> descendLocally(long pageId, PathKey key, int level) {
    Page page = store.get(pageId);
    if (page == null) {
      return List.of();
    }
    List<Page> path = new ArrayList<>(4);
    path.add(page);
    while (page instanceof IndexPage && page.level() > level) {
      Page next = page.isPastHighKey(key) ? store.get(page.rightLink().pageId())
          : store.get(((IndexPage) page).childFor(key).pageId());
      if (next == null) {
        break;
      }
      page = next;
      path.add(page);
    }
    return path;
  }

  @Override
  public LeafReply lookupInLeaf(long leafId, PathKey key) {
    Page page = store.get(leafId);
    while (page instanceof LeafPage && PathKey.atOrAbove(key, page.lowKey())) {
      LeafPage leaf = (LeafPage) page;
      if (!leaf.isPastHighKey(key)) {
        int i = leaf.search(key);
        return i >= 0 ? LeafReply.found(leaf.ownerAt(i)) : LeafReply.ABSENT;
      }
      if (!leaf.rightLink().nodes().contains(nodeId)) {
        break;
      }
      page = store.get(leaf.rightLink().pageId());
    }
    return LeafReply.RETRY;
  }

  @Override
  public LeafReply updateInLeaf(long leafId, PathKey key, int owner, boolean remove) {
    LeafPage leaf = latchLeafCovering(leafId, key);
    if (leaf == null) {
      return LeafReply.RETRY;
    }
    int i = leaf.search(key);
    LeafReply reply = i >= 0 ? LeafReply.found(leaf.ownerAt(i)) : LeafReply.ABSENT;
    if (remove) {
      if (i >= 0) {
        store.put(leaf.withRemoved(key));
      }
      latches.release(leaf.id());
      return reply;
    }
    LeafPage updated = leaf.withPut(key, owner);
    if (updated.size() <= options.leafCapacity()) {
      store.put(updated);
      latches.release(leaf.id());
    } else {
      splitLeaf(updated, updated.keyAt(updated.size() / 2));
    }
    return reply;
  }

  @Override
  public LeafReply splitLeafAt(long leafId, PathKey key) {
    LeafPage leaf = latchLeafCovering(leafId, key);
    if (leaf == null) {
      return LeafReply.RETRY;
    }
    if (key.equals(leaf.lowKey())) {
      latches.release(leaf.id());
      return LeafReply.found(leaf.id());
    }
    return LeafReply.found(splitLeaf(leaf, key));
  }

  @Override
  public LeafReply migrateLeaf(long leafId, int target) {
    return new LeafMigration(this, leafId, target).run();
  }

  @Override
  public void latchPage(long pageId) {
    latches.acquire(pageId);
  }

  @Override
  public void releasePage(long pageId) {
    latches.release(pageId);
  }

  @Override
  public void storePage(Page page) {
    if (!page.copies().contains(nodeId)) {
      throw new IllegalArgumentException("page " + page.id() + " is for " + page.copies()
          + ", not node " + nodeId);
    }
    store.put(page);
    fetchedPages.remove(page.id());
  }

  @Override
  public void dropPage(long pageId) {
    store.remove(pageId);
  }

  @Override
  public RootRef root() {
    return root;
  }

  @Override
  public void setRoot(RootRef newRoot) {
    synchronized (nodeFileLock) {
      store.putNodeFile(new NodeFile(nodeId, newRoot, seqReservedTo));
      root = newRoot;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Descent: no latches, immutable page values, B-link move-right

  /**
   * The pointer to the leaf covering {@code key}, read from a level-1 page; null to retry.
   *
   * @param throughCache whether cached copies of other nodes' pages may be read: on an
   *                     operation's first attempt only, so that a retry (the leaf was not where
   *                     a copy said) descends through current copies, as without the cache
   */
  private ChildPointer leafPointer(PathKey key, boolean throughCache) {
    IndexPage parent = descend(key, 1, throughCache);
    return parent == null ? null : parent.childFor(key);
  }

  /**
   * The page at {@code level} covering {@code key}, reached from this node's root through its
   * local copies (fetching a copy only where this node holds none), moving right past pages
   * that split after their parent was read. Null if a copy vanished under the descent (a
   * migration pruned it): the caller starts again. Reads no cached copy: writers latch what
   * this finds and read it again under the latches, but a cached copy pointing at a pruned
   * copy would send each of their attempts into the same dead end.
   */
  IndexPage descendTo(PathKey key, int level) {
    return descend(key, level, false);
  }

  /**
   * {@link #descendTo}, reading cached copies of pages this node lacks if {@code throughCache}.
   * A cached copy is used like any copy read earlier (B-link: move right past its high key; a
   * leaf not where it says answers RETRY). A descent that has to move right, or that ends at a
   * copy nobody holds, drops the cached copies it used: one of them is older than a split, a
   * move or a prune, and without them the next descent reads current ones.
   */
  private IndexPage descend(PathKey key, int level, boolean throughCache) {
    RootRef r = root;
    if (r.level() < level) {
      return null;
    }
    List<Long> cachedUsed = throughCache && fetchedPages.enabled() ? new ArrayList<>(4) : null;
    Page page = store.get(r.pageId());
    while (page instanceof IndexPage && page.level() >= level) {
      if (page.isPastHighKey(key)) {
        dropCached(cachedUsed);
        page = readDeepest(page.rightLink().pageId(), page.rightLink().nodes(), key, level,
            cachedUsed);
      } else if (page.level() == level) {
        return (IndexPage) page;
      } else {
        ChildPointer child = ((IndexPage) page).childFor(key);
        page = readDeepest(child.pageId(), child.nodes(), key, level, cachedUsed);
      }
    }
    dropCached(cachedUsed);
    return null;
  }

  /**
   * The next page of a descent: this node's copy if it has one; else, with {@code cachedUsed}
   * (the ids of cached copies this descent read so far), a cached copy; otherwise one message
   * to a node holding the page, which descends through its own copies as far as they go and
   * answers every page it passed. Those go into the cache and the deepest is the answer. A node
   * without copies below the root thus pays about one message per descent instead of one per
   * level, and none while the cache holds the pages.
   */
  private Page readDeepest(long pageId, NodeSet nodes, PathKey key, int level,
      List<Long> cachedUsed) {
    Page local = store.get(pageId);
    if (local != null) {
      return local;
    }
    if (cachedUsed != null) {
      IndexPage cached = fetchedPages.get(pageId);
      if (cached != null) {
        counters.pageCacheHits.incrementAndGet();
        cachedUsed.add(pageId);
        return cached;
      }
      counters.pageCacheMisses.incrementAndGet();
    }
    for (int n : nodes.toArray()) {
      if (n != nodeId) {
        counters.pageFetches.incrementAndGet();
        List<Page> path = at(n).descendLocally(pageId, key, level);
        if (!path.isEmpty()) {
          for (Page fetched : path) {
            if (fetched instanceof IndexPage && store.get(fetched.id()) == null) {
              fetchedPages.put((IndexPage) fetched);
            }
          }
          return path.get(path.size() - 1);
        }
      }
    }
    return null;
  }

  /** Forgets the cached copies a descent found stale. */
  private void dropCached(List<Long> cachedUsed) {
    if (cachedUsed == null) {
      return;
    }
    for (long id : cachedUsed) {
      if (fetchedPages.remove(id)) {
        counters.pageCacheDrops.incrementAndGet();
      }
    }
    cachedUsed.clear();
  }

  /** Like {@link #descendTo} for the page holding the keys just below {@code key}. */
  IndexPage descendBelow(PathKey key, int level) {
    RootRef r = root;
    Page page = store.get(r.pageId());
    while (page instanceof IndexPage && page.level() >= level) {
      if (page.highKey() != null && page.highKey().compareTo(key) < 0) {
        page = readCopy(page.rightLink().pageId(), page.rightLink().nodes());
      } else if (page.level() == level) {
        return (IndexPage) page;
      } else {
        ChildPointer child = ((IndexPage) page).childBelow(key);
        page = readCopy(child.pageId(), child.nodes());
      }
    }
    return null;
  }

  /** A copy of a page: this node's if it has one, else fetched from one of {@code nodes}. */
  private Page readCopy(long pageId, NodeSet nodes) {
    Page local = store.get(pageId);
    if (local != null) {
      return local;
    }
    for (int n : nodes.toArray()) {
      if (n != nodeId) {
        Page page = fetch(n, pageId);
        if (page != null) {
          return page;
        }
      }
    }
    return null;
  }

  private Page fetch(int node, long pageId) {
    counters.pageFetches.incrementAndGet();
    return at(node).fetchPage(pageId);
  }

  // ------------------------------------------------------------------------------------------
  // Leaf updates and splits (run on the leaf's node)

  private LeafReply update(PathKey key, int owner, boolean remove) {
    try (OperationGate.Pass pass = enter()) {
      return updatePassed(key, owner, remove);
    }
  }

  private LeafReply updatePassed(PathKey key, int owner, boolean remove) {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      ChildPointer leaf = leafPointer(key, attempt == 0);
      if (leaf != null) {
        LeafReply reply = leafNode(leaf) == nodeId
            ? updateInLeaf(leaf.pageId(), key, owner, remove)
            : forward(leafNode(leaf)).updateInLeaf(leaf.pageId(), key, owner, remove);
        if (reply.status() != LeafReply.Status.RETRY) {
          return reply;
        }
      }
      pause(attempt, start, key, remove ? "remove" : "put");
    }
  }

  /**
   * Latches the local leaf covering {@code key}, starting at {@code leafId} and moving right
   * (latch the right neighbour, then release the left one, as Lehman and Yao do). Null, holding
   * nothing, if the leaf is not here or the key's range continues on another node.
   */
  private LeafPage latchLeafCovering(long leafId, PathKey key) {
    long held = leafId;
    latches.acquire(held);
    Page page = store.get(held);
    while (page instanceof LeafPage && PathKey.atOrAbove(key, page.lowKey())) {
      if (!page.isPastHighKey(key)) {
        return (LeafPage) page;
      }
      SideLink link = page.rightLink();
      if (!link.nodes().contains(nodeId)) {
        break;
      }
      latches.acquire(link.pageId());
      latches.release(held);
      held = link.pageId();
      page = store.get(held);
    }
    latches.release(held);
    return null;
  }

  /**
   * Splits a latched leaf at {@code separator}: the right half is written first (unreachable
   * until the left half links to it), then the left half with the new high key and right link,
   * so a reader sees either the old leaf or a complete B-link pair. The separator then goes up;
   * the leaf's latch is released once the parent's copies are latched. Answers the right half.
   */
  private long splitLeaf(LeafPage leaf, PathKey separator) {
    long rightId = newPageId();
    LeafPage right = leaf.upperHalf(rightId, separator);
    store.put(right);
    store.put(leaf.lowerHalf(separator, new SideLink(rightId, NodeSet.of(nodeId))));
    counters.leafSplits.incrementAndGet();
    insertIntoParent(1, new ChildPointer(separator, rightId, NodeSet.of(nodeId)),
        () -> latches.release(leaf.id()));
    return rightId;
  }

  /**
   * Adds a pointer to a new right sibling at {@code level} - 1 to its parent, splitting upward
   * as needed. Holds the child's latch ({@code releaseChild}) until the parent's copies are
   * latched, then releases it: at most two levels are latched at once, always lower first.
   * The left halves of index splits keep all their copies while the split is carried up; their
   * surplus copies are dropped afterwards, with no latch held.
   */
  private void insertIntoParent(int level, ChildPointer newChild, Runnable releaseChild) {
    List<IndexPage> splitPages = new ArrayList<>();
    carryUp(level, newChild, releaseChild, splitPages);
    for (IndexPage left : splitPages) {
      pruneSurplus(left.lowKey() == null ? PathKey.ROOT : left.lowKey(), left.level(), false);
    }
  }

  /** The body of {@link #insertIntoParent}; collects the index pages it split. */
  private void carryUp(int level, ChildPointer newChild, Runnable releaseChild,
      List<IndexPage> splitPages) {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      LatchedPage parent = latchPageCovering(newChild.lowKey(), level, -1);
      if (parent == null) {
        pause(attempt, start, newChild.lowKey(), "insertIntoParent");
        continue;
      }
      releaseChild.run();
      IndexPage updated = parent.page.withChild(newChild);
      if (updated.childCount() <= options.indexCapacity()) {
        writeCopies(updated);
        parent.release();
        return;
      }
      long rightId = newPageId();
      IndexPage right = updated.upperHalf(rightId);
      writeCopies(right);
      IndexPage left = updated.lowerHalf(new SideLink(rightId, right.copies()));
      writeCopies(left);
      splitPages.add(left);
      counters.indexSplits.incrementAndGet();
      if (root.pageId() == left.id()) {
        growRoot(left, right);
        parent.release();
        return;
      }
      level++;
      newChild = new ChildPointer(right.lowKey(), rightId, right.copies());
      releaseChild = parent::release;
      start = System.nanoTime();
      attempt = -1;
    }
  }

  /**
   * A new root above the two halves of the old one, on every node, and every node's root
   * pointer moved to it; the caller holds every copy of the old root. Readers still starting at
   * the old root move right to its new sibling.
   */
  private void growRoot(IndexPage left, IndexPage right) {
    NodeSet all = transport.nodes();
    IndexPage newRoot = new IndexPage(newPageId(), left.level() + 1, null, null, all, null,
        List.of(new ChildPointer(null, left.id(), left.copies()),
            new ChildPointer(right.lowKey(), right.id(), right.copies())));
    writeCopies(newRoot);
    RootRef ref = new RootRef(newRoot.id(), newRoot.level());
    for (int n : all.toArray()) {
      at(n).setRoot(ref);
    }
    LOG.info("Fat-Btree root split on node {}: new root {} at level {}", nodeId, newRoot.id(),
        newRoot.level());
  }

  // ------------------------------------------------------------------------------------------
  // Latching replicated index pages

  /** An index page whose copies (and possibly one extra node's slot) an operation latched. */
  static final class LatchedPage {
    final IndexPage page;
    final NodeSet latched;
    private final FatBtreeNode node;

    private LatchedPage(FatBtreeNode node, IndexPage page, NodeSet latched) {
      this.node = node;
      this.page = page;
      this.latched = latched;
    }

    void release() {
      node.releaseCopies(page.id(), latched);
    }
  }

  /**
   * Latches the page at {@code level} covering {@code key} on all its copies, moving right
   * (latching the right page before releasing the left one) if it split since it was read.
   *
   * @param extra a node about to receive a copy, latched with the others in node order; -1 none
   */
  LatchedPage latchPageCovering(PathKey key, int level, int extra) {
    IndexPage seen = descendTo(key, level);
    if (seen == null) {
      return null;
    }
    LatchedPage held = latchCopies(seen.id(), seen.copies(), extra);
    while (held != null && held.page.isPastHighKey(key)) {
      SideLink link = held.page.rightLink();
      Page next = readCopy(link.pageId(), link.nodes());
      LatchedPage right = next == null ? null : latchCopies(next.id(), next.copies(), extra);
      held.release();
      held = right;
    }
    return held;
  }

  /**
   * Latches every copy of an index page, in ascending node order, and reads it under the
   * latches. The copy set is read from the page itself; if it changed before the latches were
   * all held, they are released and taken again for the new set. Null if the page is gone.
   */
  private LatchedPage latchCopies(long pageId, NodeSet copies, int extra) {
    while (true) {
      NodeSet toLatch = extra < 0 ? copies : copies.with(extra);
      for (int n : toLatch.toArray()) {
        at(n).latchPage(pageId);
      }
      int from = copies.contains(nodeId) ? nodeId : copies.first();
      Page page = from == nodeId ? store.get(pageId) : fetch(from, pageId);
      if (page instanceof IndexPage && page.copies().equals(copies)) {
        return new LatchedPage(this, (IndexPage) page, toLatch);
      }
      releaseCopies(pageId, toLatch);
      if (!(page instanceof IndexPage)) {
        return null;
      }
      copies = page.copies();
    }
  }

  void releaseCopies(long pageId, NodeSet latched) {
    int[] nodes = latched.toArray();
    for (int i = nodes.length - 1; i >= 0; i--) {
      at(nodes[i]).releasePage(pageId);
    }
  }

  /** Replaces the page on every node of its copy set (the caller holds all their latches). */
  void writeCopies(IndexPage page) {
    for (int n : page.copies().toArray()) {
      at(n).storePage(page);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Copy sets: pruning surplus copies (after index splits and leaf migrations)

  /**
   * Drops the surplus copies of the index pages on the path to {@code probe}, from
   * {@code level} up: copies on nodes that no longer hold anything below the page (after a
   * leaf moved away, or on the left half of an index split). This keeps S_i exactly the nodes
   * with a descendant, as the Fat-Btree defines it (seed 004 §4.2.2), and stops writes to a page
   * from paying for copies nobody descends through. For each page the parent's pointer is
   * updated first, so new descents stop expecting the copies, then the remaining copies learn
   * their copy set, then the surplus copies go. Stops at the first page without surplus, or
   * that it cannot settle (best effort: surplus copies are allowed, only wasteful).
   *
   * @param wholePath go on to the root past pages without surplus: after a migration, where
   *                  the growth of the path may have stopped short of the lower levels
   */
  void pruneSurplus(PathKey probe, int level, boolean wholePath) {
    for (; level < root.level(); level++) {
      LatchedPage page = latchPageCovering(probe, level, -1);
      if (page == null) {
        return;
      }
      NodeSet keep = page.page.childNodes();
      if (keep.containsAll(page.page.copies())) {
        page.release();
        if (wholePath) {
          continue;
        }
        return;
      }
      LatchedPage parent = latchPageCovering(probe, level + 1, -1);
      boolean ok = parent != null && parent.page.positionOf(page.page.id()) >= 0;
      if (ok) {
        IndexPage shrunk = page.page.withCopies(keep);
        ChildPointer old = parent.page.children().get(parent.page.positionOf(shrunk.id()));
        writeCopies(parent.page.withChildReplaced(shrunk.id(),
            new ChildPointer(old.lowKey(), shrunk.id(), keep)));
        writeCopies(shrunk);
        for (int n : page.page.copies().toArray()) {
          if (!keep.contains(n)) {
            at(n).dropPage(shrunk.id());
          }
        }
      }
      if (parent != null) {
        parent.release();
      }
      page.release();
      if (!ok) {
        return;
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // Boundaries, ids, peers, back-off

  /** Makes {@code key} the low key of a leaf (splitting the leaf that covers it). */
  private void splitAt(PathKey key) {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      ChildPointer pointer = leafPointer(key, attempt == 0);
      if (pointer != null) {
        if (key.equals(pointer.lowKey())) {
          return;
        }
        LeafReply reply = at(leafNode(pointer)).splitLeafAt(pointer.pageId(), key);
        if (reply.status() == LeafReply.Status.FOUND) {
          return;
        }
      }
      pause(attempt, start, key, "splitAt");
    }
  }

  static int leafNode(ChildPointer pointer) {
    return pointer.nodes().first();
  }

  private long newPageId() {
    synchronized (nodeFileLock) {
      if (nextSeq >= seqReservedTo) {
        seqReservedTo = nextSeq + ID_RESERVATION;
        store.putNodeFile(new NodeFile(nodeId, root, seqReservedTo));
      }
      return ((long) (nodeId + 1) << ID_SPACE_BITS) | nextSeq++;
    }
  }

  IndexPeer at(int node) {
    if (node == nodeId) {
      return this;
    }
    counters.messagesSent.incrementAndGet();
    return transport.peer(nodeId, node);
  }

  private IndexPeer forward(int node) {
    counters.forwards.incrementAndGet();
    return at(node);
  }

  /**
   * Waits before trying an operation again: spins briefly (the usual cause is a split or move
   * finishing on another thread), then sleeps. An operation that has not settled within a
   * minute means a broken tree, so it fails naming the key.
   */
  void pause(int attempt, long start, PathKey key, String operation) {
    counters.retries.incrementAndGet();
    if (System.nanoTime() - start > SETTLE_TIMEOUT_NANOS) {
      throw new IllegalStateException("Fat-Btree " + operation + " of " + key + " on node "
          + nodeId + " did not settle after " + attempt + " attempts; run the verifier");
    }
    if (attempt < 8) {
      Thread.yield();
    } else {
      LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(Math.min(1000, 50L * attempt)));
    }
  }
}
