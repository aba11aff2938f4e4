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
import org.apache.hadoop.conf.Configuration;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.FatBtreeOptions;
import org.locus.ndcoupling.fatbtree.PathKey;

/**
 * The fixture of the RPC tests: several Fat-Btree nodes in this JVM, node k's index server on
 * 127.0.0.(k + 1) at a free port and its pages in its own directory; the nodes reach each other
 * only through Hadoop RPC.
 */
final class RpcIndexCluster implements AutoCloseable {

  /** Small pages (6 keys, 4 children) so that a few thousand keys make a tree several high. */
  static final FatBtreeOptions SMALL_PAGES = new FatBtreeOptions(6, 4, false, 1024);
  /** How long {@link #restart} waits for a stopped node's port to be released. */
  static final long REBIND_LIMIT_MS = 10_000;

  private final Configuration conf;
  private final Path root;
  private final List<PathKey> boundaries;
  private final IndexNodeService[] services;
  private final Map<Integer, InetSocketAddress> peers = new TreeMap<>();

  private RpcIndexCluster(Configuration conf, Path root, int size, List<PathKey> boundaries) {
    this.conf = conf;
    this.root = root;
    this.boundaries = boundaries;
    this.services = new IndexNodeService[size];
  }

  /** Binds every node's server, then opens every node with the whole address list. */
  static RpcIndexCluster start(Path root, int size, String... boundaries) throws IOException {
    Configuration conf = new Configuration(false);
    // a stopped peer fails a call at once instead of after ten connection attempts
    conf.setInt("ipc.client.connect.max.retries", 1);
    conf.setInt("ipc.client.connect.retry.interval", 100);
    conf.setInt(NdCouplingConfigKeys.INDEX_RPC_HANDLERS, 24);
    List<PathKey> keys = new ArrayList<>();
    for (String b : boundaries) {
      keys.add(PathKey.of(b));
    }
    RpcIndexCluster cluster = new RpcIndexCluster(conf, root, size, keys);
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

  Path dirOf(int i) {
    return root.resolve("node-" + i);
  }

  Configuration conf() {
    return conf;
  }

  Map<Integer, InetSocketAddress> peers() {
    return peers;
  }

  int size() {
    return services.length;
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
    long deadline = System.nanoTime() + REBIND_LIMIT_MS * 1_000_000L;
    while (true) {
      try {
        services[i] = IndexNodeService.bind(conf, i, peers.get(i));
        break;
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
    services[i].open(peers, dirOf(i), SMALL_PAGES, boundaries);
    return services[i].node();
  }

  @Override
  public void close() {
    for (IndexNodeService s : services) {
      if (s != null) {
        s.close();
      }
    }
  }
}
