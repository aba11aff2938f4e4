package org.locus.ndcoupling.shift;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.CopyRing;
import org.locus.ndcoupling.fatbtree.NodeSet;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;
import org.locus.ndcoupling.fatbtree.transport.IndexAdminClient;
import org.locus.ndcoupling.fatbtree.transport.RpcTransport;

/**
 * {@link IndexHandOver} through the index's switch administration ({@link IndexAdminClient}):
 * the index node on a host is the entry of {@code locus.ndcoupling.index.peers} whose host is
 * that host (as the gear plan names it), and every switch is asked at the node that keeps its
 * copy, the next one of the ring, which stays on while the node is off.
 */
public final class IndexAdminHandOver implements IndexHandOver {
  private static final long POLL_MS = 200;

  private final Configuration conf;
  private final Configuration probeConf;
  private final Map<Integer, InetSocketAddress> peers;
  private final long timeoutMs;

  /**
   * @param conf      with {@code locus.ndcoupling.index.peers}
   * @param timeoutMs how long step 1 waits for a returning node's index server to answer
   */
  public IndexAdminHandOver(Configuration conf, long timeoutMs) {
    String list = conf.getTrimmed(NdCouplingConfigKeys.INDEX_PEERS, "");
    if (list.isEmpty()) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.INDEX_PEERS + " is not set: no"
          + " index nodes to switch");
    }
    this.conf = conf;
    this.peers = RpcTransport.parsePeers(list, NdCouplingConfigKeys.INDEX_PEERS);
    this.timeoutMs = timeoutMs;
    // a server that is not up yet is asked again after a pause, not after ten retries
    this.probeConf = new Configuration(conf);
    probeConf.setInt("ipc.client.connect.max.retries", 0);
  }

  /** @return whether {@code conf} lists index nodes whose copies the gears must switch */
  public static boolean configured(Configuration conf) {
    return !conf.getTrimmed(NdCouplingConfigKeys.INDEX_PEERS, "").isEmpty()
        && conf.getBoolean(NdCouplingConfigKeys.INDEX_COPIES,
            NdCouplingConfigKeys.INDEX_COPIES_DEFAULT);
  }

  /** @return the id of the index node on {@code host} */
  private int nodeOn(String host) throws IOException {
    for (Map.Entry<Integer, InetSocketAddress> peer : peers.entrySet()) {
      InetSocketAddress address = peer.getValue();
      if (address.getHostString().equals(host) || (address.getAddress() != null
          && address.getAddress().getHostAddress().equals(host))) {
        return peer.getKey();
      }
    }
    throw new IOException("no index node on " + host + " in " + NdCouplingConfigKeys.INDEX_PEERS
        + " (" + RpcTransport.formatPeers(peers) + ")");
  }

  private IndexAdminClient atHolderOf(int node) throws IOException {
    return IndexAdminClient.connect(conf, peers.get(CopyRing.holderOf(NodeSet.of(
        peers.keySet()), node)));
  }

  @Override
  public void toCopy(String host) throws IOException {
    int node = nodeOn(host);
    try (IndexAdminClient admin = atHolderOf(node)) {
      admin.nodeOff(node);
    }
  }

  @Override
  public ReturnShipped returning(String host) throws IOException {
    int node = nodeOn(host);
    awaitServer(node);
    try (IndexAdminClient admin = atHolderOf(node)) {
      return admin.nodeReturning(node);
    }
  }

  /** Waits until index node {@code node}'s own server answers (its NameNode has started it). */
  private void awaitServer(int node) throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      try (IndexAdminClient own = IndexAdminClient.connect(probeConf, peers.get(node))) {
        own.state(node);
        return;
      } catch (IOException e) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("the index server of node " + node + " at " + peers.get(node)
              + " did not answer within " + timeoutMs + " ms of its node's switch-on: "
              + e.getMessage(), e);
        }
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
  }

  /**
   * @return every index node's address and where it is in its off-and-on cycle (ON, OFF,
   *     RETURNING), as the node keeping its copy tells it, or why that node did not answer
   */
  public Map<Integer, String> states() {
    Map<Integer, String> states = new TreeMap<>();
    for (Map.Entry<Integer, InetSocketAddress> peer : peers.entrySet()) {
      String state;
      try (IndexAdminClient admin = IndexAdminClient.connect(probeConf,
          peers.get(CopyRing.holderOf(NodeSet.of(peers.keySet()), peer.getKey())))) {
        state = admin.state(peer.getKey()).name();
      } catch (IOException | RuntimeException e) {
        state = "unknown: " + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
      }
      states.put(peer.getKey(), peer.getValue().getHostString() + ":"
          + peer.getValue().getPort() + " " + state);
    }
    return states;
  }

  @Override
  public void back(String host) throws IOException {
    int node = nodeOn(host);
    try (IndexAdminClient admin = atHolderOf(node)) {
      admin.nodeBack(node);
    }
  }
}
