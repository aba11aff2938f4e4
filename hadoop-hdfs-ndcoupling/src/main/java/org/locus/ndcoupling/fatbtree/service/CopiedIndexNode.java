package org.locus.ndcoupling.fatbtree.service;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.FatBtreeOptions;
import org.locus.ndcoupling.fatbtree.NodeCopies;
import org.locus.ndcoupling.fatbtree.NodeSet;
import org.locus.ndcoupling.fatbtree.NodeSwitchRules;
import org.locus.ndcoupling.fatbtree.OperationGate;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.store.CopiedPageStore;
import org.locus.ndcoupling.fatbtree.store.NodeFile;
import org.locus.ndcoupling.fatbtree.store.PageCodec;
import org.locus.ndcoupling.fatbtree.store.PageDirectory;
import org.locus.ndcoupling.fatbtree.store.PageStore;
import org.locus.ndcoupling.fatbtree.store.PagesShipped;
import org.locus.ndcoupling.fatbtree.transport.IndexAdminProtocol;
import org.locus.ndcoupling.fatbtree.transport.IndexPeerServer;
import org.locus.ndcoupling.fatbtree.transport.NodeSwitchProtocol;
import org.locus.ndcoupling.fatbtree.transport.PageMirrorProtocol;
import org.locus.ndcoupling.fatbtree.transport.PagesShippedWritable;
import org.locus.ndcoupling.fatbtree.transport.RemotePageStore;
import org.locus.ndcoupling.fatbtree.transport.RpcTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Fat-Btree node over RPC with copies (docs/ndcoupling.md, "Fat-Btree copies over RPC"):
 * its own pages in its directory, every write of them mirrored to the holder of its copy (the
 * next node of the ring) before it is acknowledged; the copy of its ring predecessor's pages in
 * a directory of its own, kept current by the predecessor's mirrored writes; and the steps of
 * a switch ({@link NodeSwitchProtocol}) that a {@link NodeSwitchCoordinator} runs across every
 * node. All on one index server: the node's {@link IndexPeerServer} also serves page mirroring,
 * the switch steps and the switch administration ({@link IndexAdminProtocol}).
 *
 * <p>What this node serves at a time:
 * <ul>
 *   <li>its own id, from its own store (mirrored to the holder), unless it is off;</li>
 *   <li>while its predecessor is off, that id too, from the copy (changes logged, then after
 *       step 1 mirrored to the predecessor's own store), on a second server at a port of its
 *       own that every node routes the id to;</li>
 *   <li>mirrored writes into a store no incarnation here serves from: the copy while the
 *       predecessor is on, its own store while it is off (step 1, then the copy's writes).</li>
 * </ul>
 * Every incarnation here passes one {@link OperationGate}, which a switch closes
 * ({@link HeldGate}); every step that changes what this node serves or routes is refused unless
 * the gate is closed. Switch steps are serialised by this object's monitor; clients never wait
 * on it.
 *
 * <p>Lifecycle as {@link IndexNodeService}: {@link #bind}, then {@link #open} with every
 * node's address.
 */
public final class CopiedIndexNode implements NodeSwitchProtocol, PageMirrorProtocol,
    AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CopiedIndexNode.class);

  /**
   * In the node's own directory while it is off: a node started with it does not answer for
   * its id (its copy does) until a switch takes it back.
   */
  static final String OFF_MARK = "switched-off";

  private final Configuration conf;
  private final int nodeId;
  private final IndexPeerServer server;
  private final CopyCounters counters = new CopyCounters();
  private final OperationGate gate = new OperationGate();
  private final HeldGate heldGate;

  private FatBtreeOptions options;
  private Map<Integer, InetSocketAddress> homes;
  private Path ownDir;
  private RpcTransport transport;
  private RemotePageStore toHolder;
  private int copied;
  private volatile PageDirectory copyStore;
  private volatile PageDirectory ownStore;
  private volatile FatBtreeNode own;
  private CopiedPageStore ownMirror;
  private NodeSwitchRules rules;
  private volatile FatBtreeNode copyIncarnation;
  private CopiedPageStore copyServing;
  private boolean copyShipped;
  private IndexPeerServer copyServer;
  private RemotePageStore toReturning;
  private NodeSwitchCoordinator coordinator;
  private String metricsSource;

  private CopiedIndexNode(Configuration conf, int nodeId, IndexPeerServer server) {
    this.conf = conf;
    this.nodeId = nodeId;
    this.server = server;
    this.heldGate = new HeldGate(gate, "Fat-Btree node " + nodeId + " at " + server.address(),
        counters);
    server.addProtocol(NodeSwitchProtocol.class, this);
    server.addProtocol(PageMirrorProtocol.class, this);
  }

  /** Starts node {@code nodeId}'s index server at {@code bind}; it serves after {@link #open}. */
  public static CopiedIndexNode bind(Configuration conf, int nodeId, InetSocketAddress bind)
      throws IOException {
    return new CopiedIndexNode(conf, nodeId, IndexPeerServer.start(conf, bind, handlers(conf)));
  }

  private static int handlers(Configuration conf) {
    return conf.getInt(NdCouplingConfigKeys.INDEX_RPC_HANDLERS,
        NdCouplingConfigKeys.INDEX_RPC_HANDLERS_DEFAULT);
  }

  /**
   * Opens (formatting each if empty) this node's own page directory and the directory of the
   * copy it keeps of its ring predecessor, and serves its own id, every write mirrored to its
   * holder. Every node's server must be bound (its address in {@code peers}) before a node
   * writes a page; the holder must be open before this node takes writes.
   *
   * @param copyDir    where this node keeps its predecessor's copy (a directory per copied
   *                   node, apart from its own)
   * @param boundaries low keys of the second and later leaves, used only when formatting
   */
  public synchronized FatBtreeNode open(Map<Integer, InetSocketAddress> peers, Path ownDir,
      Path copyDir, FatBtreeOptions options, List<PathKey> boundaries) throws IOException {
    if (homes != null) {
      throw new IllegalStateException("Fat-Btree node " + nodeId + " is already open");
    }
    rules = new NodeSwitchRules(NodeSet.of(peers.keySet()));
    this.options = options;
    this.homes = Map.copyOf(peers);
    this.ownDir = ownDir;
    this.copied = rules.copiedBy(nodeId);
    PageDirectory ownPages = formatted(ownDir, nodeId, rules.nodes(), boundaries);
    copyStore = formatted(copyDir, copied, rules.nodes(), boundaries);
    ownStore = ownPages;
    transport = new RpcTransport(conf, peers);
    toHolder = RemotePageStore.connect(conf, nodeId, peers.get(rules.holderOf(nodeId)));
    coordinator = new NodeSwitchCoordinator(conf, peers,
        conf.getLong(NdCouplingConfigKeys.INDEX_SWITCH_LEASE_MS,
            NdCouplingConfigKeys.INDEX_SWITCH_LEASE_MS_DEFAULT));
    server.addProtocol(IndexAdminProtocol.class, coordinator);
    if (Files.exists(ownDir.resolve(OFF_MARK))) {
      LOG.info("Fat-Btree node {} starts switched off: node {} answers for it until it is"
          + " back", nodeId, rules.holderOf(nodeId));
    } else {
      ownMirror = CopiedPageStore.mirrored(ownStore, toHolder);
      own = FatBtreeNode.open(ownMirror, nodeId, transport, options, gate);
      server.serve(own);
    }
    metricsSource = FatBtreeMetrics.sourceName(nodeId);
    DefaultMetricsSystem.instance().register(metricsSource,
        "Fat-Btree index node " + nodeId + " with copies", new FatBtreeMetrics(nodeId,
            () -> own, counters));
    LOG.info("Fat-Btree node {} at {}: own pages in {}, node {}'s copy in {}", nodeId,
        server.address(), ownDir, copied, copyDir);
    return own;
  }

  private PageDirectory formatted(Path dir, int node, NodeSet nodes, List<PathKey> boundaries)
      throws IOException {
    PageDirectory store = PageDirectory.open(dir, options.syncWrites());
    if (store.nodeFile() == null && store.size() == 0) {
      LOG.info("Formatting {} as node {} of a new Fat-Btree over nodes {}", dir, node, nodes);
      FatBtreeNode.format(store, node, nodes, boundaries);
    }
    return store;
  }

  /** This node's id. */
  public int nodeId() {
    return nodeId;
  }

  /** The address of this node's own index server. */
  public InetSocketAddress address() {
    return server.address();
  }

  /** This node's own incarnation, or null while it is off. */
  public FatBtreeNode own() {
    return own;
  }

  /** The incarnation serving for the predecessor on its copy, or null while that node is on. */
  public FatBtreeNode copyIncarnation() {
    return copyIncarnation;
  }

  /** The node whose copy this node keeps. */
  public int copied() {
    return copied;
  }

  /** The copy of {@link #copied}'s pages kept here. */
  public PageStore copyStore() {
    return copyStore;
  }

  /** This node's own pages (stale while it is off, until step 1). */
  public PageStore ownStore() {
    return ownStore;
  }

  /** What this node counted of copies and switches. */
  public CopyCounters counters() {
    return counters;
  }

  // ------------------------------------------------------------------------------------------
  // PageMirrorProtocol

  /** The store a mirrored write for {@code node} goes to: one that no incarnation here serves. */
  private PageStore mirrorTarget(int node) throws IOException {
    if (node == copied && copyStore != null && copyIncarnation == null) {
      return copyStore;
    }
    if (node == nodeId && ownStore != null && own == null) {
      return ownStore;
    }
    throw new IOException("Fat-Btree node " + nodeId + " at " + address() + " refuses a"
        + " mirrored write for node " + node + ": "
        + (node == nodeId ? "it serves its own pages itself"
        : node == copied ? (copyStore == null ? "it is not open yet"
        : "its copy serves for node " + node)
        : "it keeps no store of node " + node + "'s pages (it keeps node " + copied + "'s)"));
  }

  @Override
  public void mirrorPage(int node, BytesWritable page) throws IOException {
    PageStore target = mirrorTarget(node);
    target.put(PageCodec.decode(page.copyBytes(),
        Path.of("page of node " + node + " mirrored to node " + nodeId)));
    counters.pagesMirrored.incrementAndGet();
  }

  @Override
  public void mirrorDrop(int node, long pageId) throws IOException {
    mirrorTarget(node).remove(pageId);
    counters.pagesMirrored.incrementAndGet();
  }

  @Override
  public void mirrorNodeFile(int node, BytesWritable nodeFile) throws IOException {
    PageStore target = mirrorTarget(node);
    NodeFile file = NodeFile.decode(nodeFile.copyBytes(),
        Path.of("node file of node " + node + " mirrored to node " + nodeId));
    if (file.nodeId() != node) {
      throw new IOException("a node file of node " + file.nodeId() + " sent as node " + node
          + "'s to node " + nodeId);
    }
    target.putNodeFile(file);
    counters.pagesMirrored.incrementAndGet();
  }

  // ------------------------------------------------------------------------------------------
  // NodeSwitchProtocol

  @Override
  public void closeGate(String switchId, long leaseMillis) throws IOException {
    heldGate.close(switchId, leaseMillis);
  }

  @Override
  public void openGate(String switchId) throws IOException {
    heldGate.open(switchId);
  }

  @Override
  public synchronized void stopOwn() throws IOException {
    heldGate.requireClosed("stopOwn");
    FatBtreeNode stopping = own;
    if (stopping == null) {
      return;
    }
    String mark = "Fat-Btree node " + nodeId + " was switched off; node "
        + rules.holderOf(nodeId) + " answers for it from its copy\n";
    if (options.syncWrites()) {
      Files.writeString(ownDir.resolve(OFF_MARK), mark, StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE, StandardOpenOption.SYNC);
    } else {
      Files.writeString(ownDir.resolve(OFF_MARK), mark, StandardCharsets.UTF_8);
    }
    stopping.stop();
    server.serve(null);
    own = null;
    ownMirror = null;
    counters.switches.incrementAndGet();
    LOG.info("Fat-Btree node {} switched off: its copy answers for it", nodeId);
  }

  @Override
  public synchronized void startOwn() throws IOException {
    heldGate.requireClosed("startOwn");
    if (own != null) {
      return;
    }
    PageDirectory reopened = PageDirectory.open(ownDir, options.syncWrites());
    CopiedPageStore mirrored = CopiedPageStore.mirrored(reopened, toHolder);
    FatBtreeNode started = FatBtreeNode.open(mirrored, nodeId, transport, options, gate);
    Files.deleteIfExists(ownDir.resolve(OFF_MARK));
    ownStore = reopened;
    ownMirror = mirrored;
    own = started;
    server.serve(started);
    counters.switches.incrementAndGet();
    LOG.info("Fat-Btree node {} back on {}", nodeId, ownDir);
  }

  private void requireCopied(int node) throws IOException {
    if (node != copied) {
      throw new IOException("Fat-Btree node " + nodeId + " keeps the copy of node " + copied
          + ", not of node " + node);
    }
  }

  @Override
  public synchronized String startCopy(int node) throws IOException {
    heldGate.requireClosed("startCopy " + node);
    requireCopied(node);
    if (copyIncarnation == null) {
      RemotePageStore returning = RemotePageStore.connect(conf, node, homes.get(node));
      CopiedPageStore logged = CopiedPageStore.logged(copyStore, returning);
      FatBtreeNode started = FatBtreeNode.open(logged, node, transport, options, gate);
      IndexPeerServer incarnationServer = IndexPeerServer.start(conf,
          new InetSocketAddress(address().getAddress(), 0), handlers(conf));
      incarnationServer.serve(started);
      toReturning = returning;
      copyServing = logged;
      copyShipped = false;
      copyServer = incarnationServer;
      copyIncarnation = started;
      counters.switches.incrementAndGet();
      LOG.info("Fat-Btree node {} serves node {} from its copy at {}", nodeId, node,
          incarnationServer.address());
    }
    return hostPort(copyServer.address());
  }

  @Override
  public PagesShippedWritable shipCopy(int node) throws IOException {
    CopiedPageStore logged;
    synchronized (this) {
      requireCopied(node);
      if (copyServing == null) {
        throw new IOException("Fat-Btree node " + nodeId + " has no copy serving for node "
            + node + " (it is on): nothing to ship");
      }
      logged = copyServing;
    }
    PagesShipped shipped = logged.shipChanges();
    synchronized (this) {
      copyShipped = true;
    }
    counters.pagesShipped.addAndGet(shipped.pages());
    counters.bytesShipped.addAndGet(shipped.bytes());
    LOG.info("Fat-Btree node {} shipped node {} its changes: {}", nodeId, node, shipped);
    return new PagesShippedWritable(shipped);
  }

  @Override
  public synchronized void logForHolder() throws IOException {
    heldGate.requireClosed("logForHolder");
    if (ownMirror == null) {
      throw new IOException("Fat-Btree node " + nodeId + " is off; only a node that is on"
          + " logs for the copy its holder keeps");
    }
    ownMirror.stopMirroring();
    LOG.info("Fat-Btree node {} logs its changes while node {}, which keeps its copy, is off",
        nodeId, rules.holderOf(nodeId));
  }

  @Override
  public PagesShippedWritable shipToHolder() throws IOException {
    CopiedPageStore mirror;
    synchronized (this) {
      if (ownMirror == null) {
        throw new IOException("Fat-Btree node " + nodeId + " is off; it has no changes of its"
            + " own to ship");
      }
      mirror = ownMirror;
    }
    PagesShipped shipped = mirror.shipChanges();
    counters.pagesShipped.addAndGet(shipped.pages());
    counters.bytesShipped.addAndGet(shipped.bytes());
    LOG.info("Fat-Btree node {} caught up its copy on node {}: {}", nodeId,
        rules.holderOf(nodeId), shipped);
    return new PagesShippedWritable(shipped);
  }

  @Override
  public synchronized void stopCopy(int node) throws IOException {
    heldGate.requireClosed("stopCopy " + node);
    requireCopied(node);
    if (copyIncarnation == null) {
      return;
    }
    copyIncarnation.stop();
    copyServer.close();
    toReturning.close();
    copyIncarnation = null;
    copyServing = null;
    copyServer = null;
    toReturning = null;
    counters.switches.incrementAndGet();
    LOG.info("Fat-Btree node {} hands node {} back; its copy follows it again", nodeId, node);
  }

  @Override
  public synchronized String copyAddress(int node) throws IOException {
    requireCopied(node);
    return copyServer == null ? "" : hostPort(copyServer.address());
  }

  @Override
  public void route(int node, String hostPort) throws IOException {
    heldGate.requireClosed("route " + node);
    transport.route(node, NetUtils.createSocketAddr(hostPort));
    // A read through the new route, which is repeated once if it fails in transport: this
    // node's RPC connection to that address may be left from a server that has since stopped
    // (a node switched off and on, a port used again), and the first call on it would fail.
    // Latches and leaf updates are never repeated, so they must find a live connection.
    transport.peer(nodeId, node).root();
  }

  @Override
  public synchronized String copyState(int node) throws IOException {
    requireCopied(node);
    NodeCopies.State state = copyIncarnation == null ? NodeCopies.State.ON
        : copyShipped ? NodeCopies.State.RETURNING : NodeCopies.State.OFF;
    return state.name();
  }

  private static String hostPort(InetSocketAddress address) {
    return address.getHostString() + ":" + address.getPort();
  }

  @Override
  public long getProtocolVersion(String protocol, long clientVersion) {
    return protocol.equals(PageMirrorProtocol.class.getName()) ? PageMirrorProtocol.versionID
        : NodeSwitchProtocol.versionID;
  }

  @Override
  public ProtocolSignature getProtocolSignature(String protocol, long clientVersion,
      int clientMethodsHash) throws IOException {
    return ProtocolSignature.getProtocolSignature(this, protocol, clientVersion,
        clientMethodsHash);
  }

  /** Stops serving: both servers, the proxies, the metrics source. Pages stay on disk. */
  @Override
  public synchronized void close() {
    if (copyServer != null) {
      copyServer.close();
    }
    server.close();
    if (transport != null) {
      transport.close();
    }
    if (toHolder != null) {
      toHolder.close();
    }
    if (coordinator != null) {
      coordinator.close();
    }
    if (toReturning != null) {
      toReturning.close();
    }
    if (metricsSource != null) {
      DefaultMetricsSystem.instance().unregisterSource(metricsSource);
      metricsSource = null;
    }
  }
}
