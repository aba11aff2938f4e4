package org.locus.ndcoupling.fatbtree.transport;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.OptionalInt;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.locus.ndcoupling.fatbtree.IndexEntry;

/** A client of one Fat-Btree node's index server ({@link IndexClientProtocol}). */
public final class IndexClient implements Closeable {

  private final IndexClientProtocol proxy;
  private final InetSocketAddress address;

  private IndexClient(IndexClientProtocol proxy, InetSocketAddress address) {
    this.proxy = proxy;
    this.address = address;
  }

  /** Connects to the index server at {@code address}. */
  public static IndexClient connect(Configuration conf, InetSocketAddress address)
      throws IOException {
    Configuration rpcConf = new Configuration(conf);
    RPC.setProtocolEngine(rpcConf, IndexClientProtocol.class, WritableRpcEngine.class);
    return new IndexClient(RPC.getProxy(IndexClientProtocol.class, IndexClientProtocol.versionID,
        address, rpcConf), address);
  }

  /** The owner {@code path} maps to, if it is in the index. */
  public OptionalInt lookup(String path) throws IOException {
    return owner(proxy.lookup(path));
  }

  /** Maps {@code path} to {@code owner}; the previous owner, if any. */
  public OptionalInt put(String path, int owner) throws IOException {
    return owner(proxy.put(path, owner));
  }

  /** Removes {@code path}; whether it was there. */
  public boolean remove(String path) throws IOException {
    return proxy.remove(path);
  }

  /** The node holding the leaf that covers {@code path}. */
  public int leafNodeOf(String path) throws IOException {
    return proxy.leafNodeOf(path);
  }

  /**
   * Every entry of {@code dir}'s subtree ({@code dir} included) in key order, merged from its
   * leaves on whichever nodes they live.
   */
  public List<IndexEntry> scanSubtree(String dir) throws IOException {
    return proxy.scanSubtree(dir).get();
  }

  /** Moves the leaves of {@code dir}'s subtree to node {@code target}. */
  public void moveSubtree(String dir, int target) throws IOException {
    proxy.moveSubtree(dir, target);
  }

  /** The server this client talks to. */
  public InetSocketAddress address() {
    return address;
  }

  private static OptionalInt owner(long answer) {
    return answer == IndexClientProtocol.NO_OWNER ? OptionalInt.empty()
        : OptionalInt.of((int) answer);
  }

  @Override
  public void close() {
    RPC.stopProxy(proxy);
  }
}
