package org.locus.ndcoupling.fatbtree.service;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.util.GenericOptionsParser;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.FatBtreeOptions;
import org.locus.ndcoupling.fatbtree.NodeSet;
import org.locus.ndcoupling.fatbtree.NodeSwitchRules;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.store.PageDirectory;
import org.locus.ndcoupling.fatbtree.transport.IndexPeerServer;
import org.locus.ndcoupling.fatbtree.transport.RpcTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Fat-Btree node running as a service: its {@link IndexPeerServer}, its node opened from its
 * page directory on an {@link RpcTransport} to the other nodes, its {@link FatBtreeMetrics}.
 *
 * <p>Two steps, {@link #bind} then {@link #open}, because a node's transport needs every node's
 * address and, with port 0, an address is known only once its server is bound: tests bind every
 * node first, then open each with the whole list. A configured node ({@link #start}) knows the
 * list from {@code locus.ndcoupling.index.peers} and does both at once. An unformatted (empty)
 * directory is formatted as this node's part of a new tree, a root above one leaf per range
 * (one leaf, on the lowest node, unless boundaries are given); every node computes the same
 * pages, so each formats its own directory.
 *
 * <p>With {@code locus.ndcoupling.index.copies} a configured node is a {@link CopiedIndexNode}
 * instead (docs/ndcoupling.md, "Fat-Btree copies over RPC"): its own pages in its directory,
 * mirrored to the next node of the ring in the peer list's id order, and the copy of the
 * previous node's pages in {@code copy-of-node-<id>} inside its directory; the switch
 * administration ({@code IndexAdminProtocol}) on the same server.
 *
 * <p>{@link #main} runs a node without a NameNode, configured by the same keys ({@code -D}).
 */
public final class IndexNodeService implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IndexNodeService.class);

  private final Configuration conf;
  private final int nodeId;
  private final IndexPeerServer server;
  private final CopiedIndexNode copied;
  private RpcTransport transport;
  private FatBtreeNode node;
  private String metricsSource;

  private IndexNodeService(Configuration conf, int nodeId, IndexPeerServer server) {
    this.conf = conf;
    this.nodeId = nodeId;
    this.server = server;
    this.copied = null;
  }

  private IndexNodeService(Configuration conf, CopiedIndexNode copied) {
    this.conf = conf;
    this.nodeId = copied.nodeId();
    this.server = null;
    this.copied = copied;
  }

  /** Starts node {@code nodeId}'s index server at {@code bind}; it serves after {@link #open}. */
  public static IndexNodeService bind(Configuration conf, int nodeId, InetSocketAddress bind)
      throws IOException {
    int handlers = conf.getInt(NdCouplingConfigKeys.INDEX_RPC_HANDLERS,
        NdCouplingConfigKeys.INDEX_RPC_HANDLERS_DEFAULT);
    return new IndexNodeService(conf, nodeId, IndexPeerServer.start(conf, bind, handlers));
  }

  /**
   * Opens (formatting it if empty) this node's page directory, serves the node and registers
   * its metrics.
   *
   * @param peers      every node's index server, this one's included
   * @param boundaries low keys of the second and later leaves, used only when formatting
   */
  public FatBtreeNode open(Map<Integer, InetSocketAddress> peers, Path dir,
      FatBtreeOptions options, List<PathKey> boundaries) throws IOException {
    if (copied != null) {
      throw new IllegalStateException("Fat-Btree node " + nodeId + " with copies is open on "
          + copied.address() + " already");
    }
    if (node != null) {
      throw new IllegalStateException("Fat-Btree node " + nodeId + " is already open on "
          + node.storeDescription());
    }
    if (!peers.containsKey(nodeId)) {
      throw new IllegalArgumentException("node " + nodeId + " is not in the peer list "
          + RpcTransport.formatPeers(peers));
    }
    PageDirectory store = PageDirectory.open(dir, options.syncWrites());
    if (store.nodeFile() == null && store.size() == 0) {
      LOG.info("Formatting {} as node {} of a new Fat-Btree over nodes {}", dir, nodeId,
          peers.keySet());
      FatBtreeNode.format(store, nodeId, NodeSet.of(peers.keySet()), boundaries);
    }
    transport = new RpcTransport(conf, peers);
    node = FatBtreeNode.open(store, nodeId, transport, options);
    server.serve(node);
    metricsSource = FatBtreeMetrics.sourceName(nodeId);
    DefaultMetricsSystem.instance().register(metricsSource,
        "Fat-Btree index node " + nodeId, new FatBtreeMetrics(node));
    LOG.info("Fat-Btree node {} serving {} at {}", nodeId, dir, server.address());
    return node;
  }

  /**
   * The node configured by the {@code locus.ndcoupling.index.*} keys, bound and opened; empty
   * when {@code locus.ndcoupling.index.node-id} is unset.
   *
   * @param defaultDir the page directory when {@code locus.ndcoupling.index.dir} is unset (null:
   *                   the key is required)
   */
  public static Optional<IndexNodeService> start(Configuration conf, Path defaultDir)
      throws IOException {
    String id = conf.getTrimmed(NdCouplingConfigKeys.INDEX_NODE_ID, "");
    if (id.isEmpty()) {
      return Optional.empty();
    }
    int nodeId;
    try {
      nodeId = Integer.parseInt(id);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.INDEX_NODE_ID + " must be a node"
          + " id (a non-negative integer), got '" + id + "'");
    }
    String list = conf.getTrimmed(NdCouplingConfigKeys.INDEX_PEERS, "");
    if (list.isEmpty()) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.INDEX_NODE_ID + " is set but "
          + NdCouplingConfigKeys.INDEX_PEERS + " is not; list every node as id=host:port");
    }
    Map<Integer, InetSocketAddress> peers =
        RpcTransport.parsePeers(list, NdCouplingConfigKeys.INDEX_PEERS);
    if (!peers.containsKey(nodeId)) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.INDEX_PEERS + " does not list"
          + " this node, " + nodeId + " (" + NdCouplingConfigKeys.INDEX_NODE_ID + ")");
    }
    String dirKey = conf.getTrimmed(NdCouplingConfigKeys.INDEX_DIR, "");
    if (dirKey.isEmpty() && defaultDir == null) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.INDEX_DIR + " is not set");
    }
    Path dir = dirKey.isEmpty() ? defaultDir : Path.of(dirKey);
    FatBtreeOptions options = options(conf);
    if (conf.getBoolean(NdCouplingConfigKeys.INDEX_COPIES,
        NdCouplingConfigKeys.INDEX_COPIES_DEFAULT)) {
      return Optional.of(startCopied(conf, nodeId, peers, dir, options));
    }
    IndexNodeService service = bind(conf, nodeId, peers.get(nodeId));
    try {
      service.open(peers, dir, options, List.of());
    } catch (IOException | RuntimeException e) {
      service.close();
      throw e;
    }
    return Optional.of(service);
  }

  private static IndexNodeService startCopied(Configuration conf, int nodeId,
      Map<Integer, InetSocketAddress> peers, Path dir, FatBtreeOptions options)
      throws IOException {
    if (peers.size() < 2) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.INDEX_COPIES + " is on but "
          + NdCouplingConfigKeys.INDEX_PEERS + " lists one node; a copy needs a second node");
    }
    int predecessor = new NodeSwitchRules(NodeSet.of(peers.keySet())).copiedBy(nodeId);
    CopiedIndexNode node = CopiedIndexNode.bind(conf, nodeId, peers.get(nodeId));
    try {
      node.open(peers, dir, copyDir(dir, predecessor), options, List.of());
    } catch (IOException | RuntimeException e) {
      node.close();
      throw e;
    }
    return new IndexNodeService(conf, node);
  }

  /** Where the node with page directory {@code dir} keeps its copy of node {@code copied}. */
  public static Path copyDir(Path dir, int copied) {
    return dir.resolve("copy-of-node-" + copied);
  }

  /** Page sizes, durability and the fetched-page cache from the configuration. */
  public static FatBtreeOptions options(Configuration conf) {
    int cachedPages = conf.getInt(NdCouplingConfigKeys.INDEX_CACHED_PAGES,
        NdCouplingConfigKeys.INDEX_CACHED_PAGES_DEFAULT);
    if (cachedPages < 0) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.INDEX_CACHED_PAGES + " must be 0"
          + " (no cache) or more pages, got " + cachedPages);
    }
    return new FatBtreeOptions(
        conf.getInt(NdCouplingConfigKeys.INDEX_LEAF_CAPACITY,
            NdCouplingConfigKeys.INDEX_LEAF_CAPACITY_DEFAULT),
        conf.getInt(NdCouplingConfigKeys.INDEX_PAGE_CAPACITY,
            NdCouplingConfigKeys.INDEX_PAGE_CAPACITY_DEFAULT),
        conf.getBoolean(NdCouplingConfigKeys.INDEX_SYNC_WRITES,
            NdCouplingConfigKeys.INDEX_SYNC_WRITES_DEFAULT),
        cachedPages);
  }

  /** This node's id. */
  public int nodeId() {
    return nodeId;
  }

  /** The server's bound address. */
  public InetSocketAddress address() {
    return copied != null ? copied.address() : server.address();
  }

  /**
   * The node, or null before {@link #open}; with copies, its own incarnation, null while it is
   * switched off.
   */
  public FatBtreeNode node() {
    return copied != null ? copied.own() : node;
  }

  /** The node with copies, or empty when this node keeps none. */
  public Optional<CopiedIndexNode> copies() {
    return Optional.ofNullable(copied);
  }

  /** The metrics2 source name, or null before {@link #open}. */
  public String metricsSource() {
    return copied != null ? FatBtreeMetrics.sourceName(nodeId) : metricsSource;
  }

  /** Stops serving: the server, the proxies to the other nodes, the metrics source. */
  @Override
  public void close() {
    if (copied != null) {
      copied.close();
      return;
    }
    server.close();
    if (transport != null) {
      transport.close();
    }
    if (metricsSource != null) {
      DefaultMetricsSystem.instance().unregisterSource(metricsSource);
      metricsSource = null;
    }
  }

  /**
   * Runs one node until the JVM is stopped, configured by {@code -D} options with the
   * {@code locus.ndcoupling.index.*} keys ({@code locus.ndcoupling.index.dir} required).
   */
  public static void main(String[] args) throws Exception {
    Configuration conf = new GenericOptionsParser(new Configuration(), args).getConfiguration();
    Optional<IndexNodeService> service = start(conf, null);
    if (service.isEmpty()) {
      System.err.println(NdCouplingConfigKeys.INDEX_NODE_ID + " is not set; nothing to run");
      System.exit(2);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.get().close();
      stopped.countDown();
    }, "fat-btree-node-stop"));
    stopped.await();
  }
}
