package org.locus.ndcoupling.fatbtree.service;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.CopyRing;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.IndexNodesAt;
import org.locus.ndcoupling.fatbtree.FatBtreeOptions;
import org.locus.ndcoupling.fatbtree.IncarnationStoppedException;
import org.locus.ndcoupling.fatbtree.NodeSet;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.TreeVerifier;
import org.locus.ndcoupling.fatbtree.VerificationReport;
import org.locus.ndcoupling.fatbtree.store.PageStore;
import org.locus.ndcoupling.fatbtree.transport.IndexAdminClient;

/**
 * The fixture of the RPC tests: several Fat-Btree nodes in this JVM, node k's index server on
 * 127.0.0.(k + 1) at a free port and its pages in its own directory; the nodes reach each other
 * only through Hadoop RPC.
 *
 * <p>With copies ({@link #startWithCopies}) each node is a {@link CopiedIndexNode}: node k's
 * copy of its ring predecessor in {@code node-k/copy-of-node-p}; whole nodes are switched
 * through the switch administration over RPC ({@link #admin}), and a node switched off has its
 * server stopped ({@link #stopHost}) until it is started again for its step 1
 * ({@link #startHost}), as a node powered off and on.
 */
final class RpcIndexCluster implements AutoCloseable, IndexNodesAt {

  /** Small pages (6 keys, 4 children) so that a few thousand keys make a tree several high. */
  static final FatBtreeOptions SMALL_PAGES = new FatBtreeOptions(6, 4, false, 1024);
  /** How long {@link #restart} waits for a stopped node's port to be released. */
  static final long REBIND_LIMIT_MS = 10_000;

  private final Configuration conf;
  private final Path root;
  private final List<PathKey> boundaries;
  private final IndexNodeService[] services;
  private final CopiedIndexNode[] hosts;
  private final Map<Integer, InetSocketAddress> peers = new TreeMap<>();

  private RpcIndexCluster(Configuration conf, Path root, int size, List<PathKey> boundaries,
      boolean copies) {
    this.conf = conf;
    this.root = root;
    this.boundaries = boundaries;
    this.services = copies ? null : new IndexNodeService[size];
    this.hosts = copies ? new CopiedIndexNode[size] : null;
  }

  private static Configuration testConf() {
    Configuration conf = new Configuration(false);
    // a stopped peer fails a call at once instead of after ten connection attempts
    conf.setInt("ipc.client.connect.max.retries", 1);
    conf.setInt("ipc.client.connect.retry.interval", 100);
    conf.setInt(NdCouplingConfigKeys.INDEX_RPC_HANDLERS, 24);
    return conf;
  }

  private static List<PathKey> keys(String... boundaries) {
    List<PathKey> keys = new ArrayList<>();
    for (String b : boundaries) {
      keys.add(PathKey.of(b));
    }
    return keys;
  }

  /** Binds every node's server, then opens every node with the whole address list. */
  static RpcIndexCluster start(Path root, int size, String... boundaries) throws IOException {
    Configuration conf = testConf();
    List<PathKey> keys = keys(boundaries);
    RpcIndexCluster cluster = new RpcIndexCluster(conf, root, size, keys, false);
    try {
      for (int i = 0; i < size; i++) {
        cluster.services[i] = IndexNodeService.bind(conf, i,
            new InetSocketAddress("127.0.0." + (i + 1), 0));
        cluster.peers.put(i, cluster.services[i].address());
      }
      for (int i = 0; i < size; i++) {
        cluster.services[i].open(cluster.peers, cluster.dirOf(i), SMALL_PAGES, keys);
      }
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /**
   * Binds every node's server, then opens every node with its copy of its ring predecessor and
   * the whole address list.
   */
  static RpcIndexCluster startWithCopies(Path root, int size, String... boundaries)
      throws IOException {
    RpcIndexCluster cluster = new RpcIndexCluster(testConf(), root, size, keys(boundaries), true);
    try {
      for (int i = 0; i < size; i++) {
        cluster.hosts[i] = CopiedIndexNode.bind(cluster.conf, i,
            new InetSocketAddress("127.0.0." + (i + 1), 0));
        cluster.peers.put(i, cluster.hosts[i].address());
      }
      for (int i = 0; i < size; i++) {
        cluster.openHost(i);
      }
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  private void openHost(int i) throws IOException {
    hosts[i].open(peers, dirOf(i), copyDirOf(i), SMALL_PAGES, boundaries);
  }

  Path dirOf(int i) {
    return root.resolve("node-" + i);
  }

  /** Where node {@code holder} keeps the copy of its ring predecessor. */
  Path copyDirOf(int holder) {
    int copied = -1;
    for (int n = 0; n < size(); n++) {
      if (CopyRing.holderOf(NodeSet.of(peers.keySet()), n) == holder) {
        copied = n;
      }
    }
    return dirOf(holder).resolve("copy-of-node-" + copied);
  }

  Configuration conf() {
    return conf;
  }

  Map<Integer, InetSocketAddress> peers() {
    return peers;
  }

  int size() {
    return services != null ? services.length : hosts.length;
  }

  FatBtreeNode node(int i) {
    return services[i].node();
  }

  IndexNodeService service(int i) {
    return services[i];
  }

  List<FatBtreeNode> nodes() {
    List<FatBtreeNode> nodes = new ArrayList<>();
    for (IndexNodeService s : services) {
      nodes.add(s.node());
    }
    return nodes;
  }

  /** Stops node {@code i}'s service; its pages stay in its directory. */
  void stop(int i) {
    services[i].close();
  }

  /**
   * Starts node {@code i} again on its old address from its directory. The stopped server's
   * listening socket is released by its listener thread's selector, not by {@code stop()}
   * itself (a channel registered with a selector is closed when it is deregistered), so a
   * bind right after a stop can find the port still taken: it is tried again until the port
   * is free, for at most {@value #REBIND_LIMIT_MS} ms.
   */
  FatBtreeNode restart(int i) throws IOException {
    services[i] = bindAgain(i, () -> IndexNodeService.bind(conf, i, peers.get(i)));
    services[i].open(peers, dirOf(i), SMALL_PAGES, boundaries);
    return services[i].node();
  }

  private interface Binding<T> {
    T bind() throws IOException;
  }

  /** {@code binding} of node {@code i}'s old address, again until its port is free. */
  private static <T> T bindAgain(int i, Binding<T> binding) throws IOException {
    long deadline = System.nanoTime() + REBIND_LIMIT_MS * 1_000_000L;
    while (true) {
      try {
        return binding.bind();
      } catch (IOException e) {
        if (!(e.getCause() instanceof BindException) || System.nanoTime() > deadline) {
          throw e;
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted rebinding node " + i);
        }
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // With copies

  /** Node {@code i} with copies, or null while its server is stopped. */
  synchronized CopiedIndexNode host(int i) {
    return hosts[i];
  }

  /** The node keeping {@code n}'s copy. */
  int holderOf(int n) {
    return CopyRing.holderOf(NodeSet.of(peers.keySet()), n);
  }

  /**
   * The incarnation answering for node {@code n} now: its own, or the one on its copy; null for
   * the instant of a switch between the one stopping and the other starting.
   */
  synchronized FatBtreeNode serving(int n) {
    FatBtreeNode own = hosts[n] == null ? null : hosts[n].own();
    if (own != null) {
      return own;
    }
    CopiedIndexNode holder = hosts[holderOf(n)];
    return holder == null ? null : holder.copyIncarnation();
  }

  /** Every node's current incarnation, in node order. */
  List<FatBtreeNode> servingNodes() {
    List<FatBtreeNode> out = new ArrayList<>();
    for (int n = 0; n < size(); n++) {
      out.add(serving(n));
    }
    return out;
  }

  /**
   * Runs a client operation at node {@code n}'s current incarnation, again at the next one if
   * the incarnation was stopped under it by a switch.
   */
  @Override
  public <T> T at(int n, Function<FatBtreeNode, T> operation) {
    while (true) {
      FatBtreeNode node = serving(n);
      if (node != null) {
        try {
          return operation.apply(node);
        } catch (IncarnationStoppedException e) {
          // switched meanwhile: ask the incarnation serving now
        }
      }
      Thread.yield();
    }
  }

  /** The switch administration, asked at the lowest node whose server runs. */
  synchronized IndexAdminClient admin() throws IOException {
    for (int i = 0; i < hosts.length; i++) {
      if (hosts[i] != null) {
        return IndexAdminClient.connect(conf, hosts[i].address());
      }
    }
    throw new IllegalStateException("no index server runs");
  }

  /** Stops node {@code i}'s server (a node switched off whole); its directories stay. */
  void stopHost(int i) {
    CopiedIndexNode stopping;
    synchronized (this) {
      stopping = hosts[i];
      hosts[i] = null;
    }
    stopping.close();
  }

  /** Starts node {@code i}'s server again on its address from its directories. */
  CopiedIndexNode startHost(int i) throws IOException {
    CopiedIndexNode started = bindAgain(i, () -> CopiedIndexNode.bind(conf, i, peers.get(i)));
    started.open(peers, dirOf(i), copyDirOf(i), SMALL_PAGES, boundaries);
    synchronized (this) {
      hosts[i] = started;
    }
    return started;
  }

  /**
   * The verifier over every node's current incarnation, and each node that is on checked page
   * by page against its copy, if that copy is current: its holder is on, or switched off but
   * with its step 1 done (while the holder is off, the node logs for it instead).
   */
  synchronized VerificationReport verifyWithCopies() throws IOException {
    Map<Integer, PageStore> copies = new TreeMap<>();
    for (int n = 0; n < size(); n++) {
      int holder = holderOf(n);
      if (hosts[n] != null && hosts[n].own() != null && hosts[holder] != null
          && (hosts[holder].own() != null || hosts[holderOf(holder)].copyState(holder)
              .equals("RETURNING"))) {
        copies.put(n, hosts[holder].copyStore());
      }
    }
    return TreeVerifier.verify(servingNodes(), copies);
  }

  @Override
  public void close() {
    if (services != null) {
      for (IndexNodeService s : services) {
        if (s != null) {
          s.close();
        }
      }
    }
    if (hosts != null) {
      for (CopiedIndexNode h : hosts) {
        if (h != null) {
          h.close();
        }
      }
    }
  }
}
