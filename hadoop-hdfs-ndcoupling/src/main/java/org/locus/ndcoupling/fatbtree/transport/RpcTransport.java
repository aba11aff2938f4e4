package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.net.NetUtils;
import org.locus.ndcoupling.fatbtree.IndexPeer;
import org.locus.ndcoupling.fatbtree.NodeSet;
import org.locus.ndcoupling.fatbtree.PeerTransport;

/**
 * Nodes of one Fat-Btree reached over Hadoop RPC: a peer is a {@link FatBtreeProtocol} proxy
 * to the peer's {@link IndexPeerServer}. One transport belongs to one node; it opens one proxy
 * per peer, on first use, and keeps it (Hadoop's RPC client reconnects after a peer restarts
 * on the same address). Messages are counted by the sending node and by the receiving server.
 *
 * <p>With copies, a node id is answered by one incarnation at a time, on the node itself or on
 * the holder of its copy; a switch moves the id to the other's address with {@link #route}
 * while no operation is in flight. Every message looks its peer up afresh, so the next one goes
 * to the new address.
 */
public final class RpcTransport implements PeerTransport, AutoCloseable {

  private final Configuration conf;
  private final Map<Integer, InetSocketAddress> addresses;
  private final NodeSet nodes;
  private final Map<Integer, FatBtreeProtocol> proxies = new ConcurrentHashMap<>();

  /**
   * @param addresses every node's index server, by node id (this node's own included)
   */
  public RpcTransport(Configuration conf, Map<Integer, InetSocketAddress> addresses) {
    if (addresses.isEmpty()) {
      throw new IllegalArgumentException("a Fat-Btree needs at least one node address");
    }
    this.conf = new Configuration(conf);
    RPC.setProtocolEngine(this.conf, FatBtreeProtocol.class, WritableRpcEngine.class);
    this.addresses = new ConcurrentHashMap<>(addresses);
    this.nodes = NodeSet.of(addresses.keySet());
  }

  /**
   * Parses a peer list {@code id=host:port,id=host:port,...}; {@code key} is named in errors.
   */
  public static Map<Integer, InetSocketAddress> parsePeers(String list, String key) {
    Map<Integer, InetSocketAddress> peers = new TreeMap<>();
    for (String item : list.split(",")) {
      String entry = item.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException(key + ": '" + entry + "' is not id=host:port");
      }
      int id;
      try {
        id = Integer.parseInt(entry.substring(0, eq).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + ": '" + entry + "' does not start with a"
            + " node id");
      }
      if (id < 0) {
        throw new IllegalArgumentException(key + ": node id " + id + " is negative");
      }
      String address = entry.substring(eq + 1).trim();
      if (address.lastIndexOf(':') < 0) {
        throw new IllegalArgumentException(key + ": '" + entry + "' has no port");
      }
      if (peers.put(id, NetUtils.createSocketAddr(address, -1, key)) != null) {
        throw new IllegalArgumentException(key + ": node " + id + " is listed twice");
      }
    }
    if (peers.isEmpty()) {
      throw new IllegalArgumentException(key + " lists no node");
    }
    return peers;
  }

  /** Formats addresses as a peer list {@link #parsePeers} reads. */
  public static String formatPeers(Map<Integer, InetSocketAddress> addresses) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<Integer, InetSocketAddress> e : new TreeMap<>(addresses).entrySet()) {
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(e.getKey()).append('=').append(e.getValue().getHostString()).append(':')
          .append(e.getValue().getPort());
    }
    return out.toString();
  }

  /**
   * Sends every later message for node {@code id} to {@code address}: the server of the
   * incarnation that answers for it now.
   */
  public void route(int id, InetSocketAddress address) {
    addressOf(id);
    if (address.equals(addresses.put(id, address))) {
      return;
    }
    FatBtreeProtocol old = proxies.remove(id);
    if (old != null) {
      RPC.stopProxy(old);
    }
  }

  /** The address of node {@code id}'s index server (its current incarnation's). */
  public InetSocketAddress addressOf(int id) {
    InetSocketAddress address = addresses.get(id);
    if (address == null) {
      throw new IllegalArgumentException("node " + id + " is not one of " + nodes);
    }
    return address;
  }

  @Override
  public NodeSet nodes() {
    return nodes;
  }

  @Override
  public IndexPeer peer(int from, int to) {
    InetSocketAddress address = addressOf(to);
    return new RpcPeer(from, to, address, proxies.computeIfAbsent(to, id -> connect(address)));
  }

  private FatBtreeProtocol connect(InetSocketAddress address) {
    try {
      return RPC.getProxy(FatBtreeProtocol.class, FatBtreeProtocol.versionID, address, conf);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open an RPC proxy to the Fat-Btree index server at "
          + address + ": " + e.getMessage(), e);
    }
  }

  /** Stops every proxy this transport opened. */
  @Override
  public void close() {
    proxies.values().forEach(RPC::stopProxy);
    proxies.clear();
  }
}
