package org.locus.ndcoupling.fatbtree;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.locus.ndcoupling.fatbtree.store.CopiedPageStore;
import org.locus.ndcoupling.fatbtree.store.PageStore;
import org.locus.ndcoupling.fatbtree.store.PagesShipped;
import org.locus.ndcoupling.fatbtree.transport.InProcessTransport;

/**
 * A Fat-Btree in one JVM whose every node has a copy of its pages on the next node of the ring
 * ({@link CopyRing}), and the three steps of switching a whole node off and on again
 * (docs/ndcoupling.md, "Fat-Btree copies"):
 *
 * <ol>
 *   <li>{@link #nodeOff}: the node's copy, kept current while the node was on (every page
 *       write mirrored), starts answering for the node's id: same pages, same S_i, same latch
 *       order; it logs every page it changes.</li>
 *   <li>{@link #nodeReturning}: gear-up step 1: the copy sends the returning node's own store
 *       the pages that changed while it was off, and mirrors every later write there too.
 *       Clients go on meanwhile, served by the copy.</li>
 *   <li>{@link #nodeBack}: the node opens its own store again and answers for its id; its
 *       copy goes back to following it.</li>
 * </ol>
 *
 * A node is one <em>incarnation</em> at a time: the switch happens behind a closed
 * {@link OperationGate}, with no operation in flight anywhere in the tree. A client that held
 * the stopped incarnation gets {@link IncarnationStoppedException} and asks {@link #serving}.
 * Switches are serialised; clients never wait on this object's monitor.
 */
public final class NodeCopies {

  /** How a node opens its page stores. */
  public interface Stores {
    /** The node's own pages, on the node (opened again when it returns). */
    PageStore openOwn(int node) throws IOException;

    /** The copy of the node's pages, on its holder. */
    PageStore openCopy(int node) throws IOException;
  }

  /** Where a node is in an off-and-on cycle. */
  public enum State {
    /** The node answers for its pages; its copy follows every write. */
    ON,
    /** The copy answers for the node and logs what it changes. */
    OFF,
    /** Step 1 done: the node's store has every change; the copy still answers. */
    RETURNING
  }

  private final InProcessTransport registry;
  private final PeerTransport transport;
  private final FatBtreeOptions options;
  private final Stores stores;
  private final NodeSwitchRules rules;
  private final OperationGate gate = new OperationGate();
  private final Map<Integer, FatBtreeNode> serving = new ConcurrentHashMap<>();
  private final Map<Integer, State> states = new ConcurrentHashMap<>();
  private final Map<Integer, PageStore> own = new ConcurrentHashMap<>();
  private final Map<Integer, PageStore> copies = new ConcurrentHashMap<>();
  private final Map<Integer, CopiedPageStore> logging = new ConcurrentHashMap<>();

  /**
   * Starts every node of {@code registry} on its own store, mirrored to its copy; both must
   * hold the node's formatted pages ({@link FatBtreeNode#format} into each).
   *
   * @param transport what the nodes talk through: {@code registry} or a wrapper of it
   */
  public NodeCopies(InProcessTransport registry, PeerTransport transport,
      FatBtreeOptions options, Stores stores) throws IOException {
    this.registry = registry;
    this.transport = transport;
    this.options = options;
    this.stores = stores;
    this.rules = new NodeSwitchRules(registry.nodes());
    for (int n : registry.nodes().toArray()) {
      copies.put(n, stores.openCopy(n));
      own.put(n, stores.openOwn(n));
      serve(n, openOwnIncarnation(n));
      states.put(n, State.ON);
    }
  }

  /** The incarnation answering for node {@code n} now: its own, or its copy. */
  public FatBtreeNode serving(int n) {
    FatBtreeNode node = serving.get(n);
    if (node == null) {
      throw new IllegalArgumentException("node " + n + " is not one of " + registry.nodes());
    }
    return node;
  }

  /** Every node's current incarnation, in node order. */
  public List<FatBtreeNode> servingNodes() {
    List<FatBtreeNode> out = new ArrayList<>();
    for (int n : registry.nodes().toArray()) {
      out.add(serving(n));
    }
    return out;
  }

  public State state(int n) {
    return states.get(n);
  }

  /** The node holding {@code n}'s copy. */
  public int holderOf(int n) {
    return rules.holderOf(n);
  }

  /** The copy of node {@code n}'s pages on its holder. */
  public PageStore copyOf(int n) {
    return copies.get(n);
  }

  /** Node {@code n}'s own store (stale while the node is off). */
  public PageStore ownStoreOf(int n) {
    return own.get(n);
  }

  /**
   * Switches node {@code n} off: its copy answers for it from now on. Refused unless the node
   * and its copy's holder are on and the node holds no copy that answers for another node.
   */
  public synchronized void nodeOff(int n) {
    rules.checkOff(n, states::get);
    gate.whileClosed(() -> {
      CopiedPageStore logged = CopiedPageStore.logged(copies.get(n), own.get(n));
      serve(n, open(logged, n));
      logging.put(n, logged);
      states.put(n, State.OFF);
    });
  }

  /**
   * Gear-up step 1 for node {@code n}: ships the pages its copy changed while it was off to the
   * node's own store. The copy keeps answering (and from now on writes through to the node)
   * until {@link #nodeBack}.
   */
  public synchronized PagesShipped nodeReturning(int n) {
    rules.checkReturning(n, states::get);
    PagesShipped shipped = logging.get(n).shipChanges();
    states.put(n, State.RETURNING);
    return shipped;
  }

  /** Node {@code n}, its pages shipped, answers for them again from its own store. */
  public synchronized FatBtreeNode nodeBack(int n) {
    rules.checkBack(n, states::get);
    gate.whileClosed(() -> {
      reopenOwn(n);
      logging.remove(n);
      states.put(n, State.ON);
    });
    return serving(n);
  }

  /** Stops node {@code n} (on) and starts it again from its own store. */
  public synchronized FatBtreeNode restart(int n) {
    rules.checkRestart(n, states::get);
    gate.whileClosed(() -> reopenOwn(n));
    return serving(n);
  }

  /**
   * The verifier over every node's current incarnation, and for every node that is on, its
   * copy equal to its pages page by page, with the same root pointer.
   */
  public VerificationReport verify() {
    Map<Integer, PageStore> current = new ConcurrentHashMap<>();
    states.forEach((n, state) -> {
      if (state == State.ON) {
        current.put(n, copies.get(n));
      }
    });
    return TreeVerifier.verify(servingNodes(), current);
  }

  private void reopenOwn(int n) {
    try {
      own.put(n, stores.openOwn(n));
    } catch (IOException e) {
      throw new UncheckedIOException("node " + n + " could not open its own store", e);
    }
    serve(n, openOwnIncarnation(n));
  }

  private FatBtreeNode openOwnIncarnation(int n) {
    return open(CopiedPageStore.mirrored(own.get(n), copies.get(n)), n);
  }

  private FatBtreeNode open(PageStore store, int n) {
    try {
      return FatBtreeNode.open(store, n, transport, options, gate);
    } catch (IOException e) {
      throw new UncheckedIOException("node " + n + " could not start on " + store.describe(), e);
    }
  }

  /** Makes {@code node} the incarnation answering for its id; stops the one before it. */
  private void serve(int n, FatBtreeNode node) {
    FatBtreeNode before = serving.put(n, node);
    if (before != null) {
      before.stop();
    }
    registry.register(node);
  }
}
