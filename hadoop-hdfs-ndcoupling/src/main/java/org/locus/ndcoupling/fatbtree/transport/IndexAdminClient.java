package org.locus.ndcoupling.fatbtree.transport;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.locus.ndcoupling.fatbtree.NodeCopies;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;

/**
 * A client of the index's switch administration ({@link IndexAdminProtocol}) at one index
 * node, which coordinates each switch over every node: what the gear shifter calls to switch a
 * whole node off, run its step 1 and take it back. A call that fails in transport is sent once
 * more (the server may have restarted since the last call on this address): switching off and
 * back are re-runnable, and a step 1 that is asked twice is refused the second time as RETURNING
 * rather than shipped twice.
 */
public final class IndexAdminClient implements Closeable {

  private final IndexAdminProtocol rpc;
  private final IndexAdminProtocol proxy;

  private IndexAdminClient(IndexAdminProtocol rpc, InetSocketAddress address) {
    this.rpc = rpc;
    this.proxy = RepeatedOnce.wrap(IndexAdminProtocol.class, rpc, address);
  }

  /** Connects to the index server at {@code address}. */
  public static IndexAdminClient connect(Configuration conf, InetSocketAddress address)
      throws IOException {
    Configuration rpcConf = new Configuration(conf);
    RPC.setProtocolEngine(rpcConf, IndexAdminProtocol.class, WritableRpcEngine.class);
    return new IndexAdminClient(RPC.getProxy(IndexAdminProtocol.class,
        IndexAdminProtocol.versionID, address, rpcConf), address);
  }

  /** Switches {@code node} off; its copy answers for it. */
  public void nodeOff(int node) throws IOException {
    proxy.nodeOff(node);
  }

  /**
   * Gear-up step 1: ships {@code node} (its index server up again) the pages changed while it
   * was off, its own and those of the copy it keeps.
   */
  public ReturnShipped nodeReturning(int node) throws IOException {
    return proxy.nodeReturning(node).get();
  }

  /** {@code node} answers for its pages again. */
  public void nodeBack(int node) throws IOException {
    proxy.nodeBack(node);
  }

  /** Where {@code node} is in its off-and-on cycle. */
  public NodeCopies.State state(int node) throws IOException {
    return NodeCopies.State.valueOf(proxy.state(node));
  }

  @Override
  public void close() {
    RPC.stopProxy(rpc);
  }
}
