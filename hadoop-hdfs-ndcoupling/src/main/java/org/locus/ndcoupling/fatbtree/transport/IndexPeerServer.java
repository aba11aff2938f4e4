package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.IndexPeer;
import org.locus.ndcoupling.fatbtree.PathKey;

/**
 * The server side of {@link RpcTransport}: one node's {@link IndexPeer} served over Hadoop RPC
 * ({@link FatBtreeProtocol}), and on the same port the operations clients start at this node
 * ({@link IndexClientProtocol}). Every call from another node counts as a message received by
 * the node, as the in-process transport counts it; client calls do not.
 *
 * <p>Lifecycle: {@link #start} binds the address (port 0: any free port), then
 * {@link #serve} names the node that answers. The two are apart because every node's transport
 * needs every node's address before any node can be opened, and with port 0 the address is
 * known only once the server is bound. Calls that arrive before {@link #serve} fail, naming the
 * address; {@link #serve} again (a node restarted from its directory) replaces the node.
 *
 * <p>Handlers: a forwarded update may split pages and so latch pages on other nodes while it
 * holds a handler here, and a latch request waits on the serving node's handler until the latch
 * is free. Each index operation in flight holds at most one handler on its leaf's node and one
 * on the node whose page it latches, so handlers must exceed the index operations that can be
 * in flight at once (locus.ndcoupling.index.rpc-handlers).
 */
public final class IndexPeerServer implements FatBtreeProtocol, IndexClientProtocol,
    AutoCloseable {

  private final RPC.Server server;
  private final InetSocketAddress address;
  private volatile FatBtreeNode node;

  private IndexPeerServer(Configuration conf, InetSocketAddress bind, int handlers)
      throws IOException {
    Configuration rpcConf = new Configuration(conf);
    RPC.setProtocolEngine(rpcConf, FatBtreeProtocol.class, WritableRpcEngine.class);
    try {
      this.server = new RPC.Builder(rpcConf).setProtocol(FatBtreeProtocol.class)
          .setInstance(this).setBindAddress(bind.getHostString()).setPort(bind.getPort())
          .setNumHandlers(handlers).setVerbose(false).build();
      server.addProtocol(RPC.RpcKind.RPC_WRITABLE, IndexClientProtocol.class, this);
    } catch (IOException e) {
      throw new IOException("cannot bind the Fat-Btree index server to " + bind + ": "
          + e.getMessage(), e);
    }
    this.address = server.getListenerAddress();
  }

  /** Binds and starts a server at {@code bind} with {@code handlers} handler threads. */
  public static IndexPeerServer start(Configuration conf, InetSocketAddress bind, int handlers)
      throws IOException {
    IndexPeerServer peerServer = new IndexPeerServer(conf, bind, handlers);
    peerServer.server.start();
    return peerServer;
  }

  /**
   * Makes {@code served} the node answering here (replacing an earlier incarnation); null: none
   * (the node was switched off and its copy answers elsewhere), so requests fail naming this
   * address instead of reaching a stopped incarnation.
   */
  public void serve(FatBtreeNode served) {
    this.node = served;
  }

  /**
   * Serves {@code protocol} (Writable engine) on this server's port too, answered by
   * {@code implementation}: the copies' page mirroring and switch steps, the switch
   * administration. Call before any client uses it.
   */
  public void addProtocol(Class<?> protocol, Object implementation) {
    server.addProtocol(RPC.RpcKind.RPC_WRITABLE, protocol, implementation);
  }

  /** The bound address (with the real port when started on port 0). */
  public InetSocketAddress address() {
    return address;
  }

  /** The node served, or null before {@link #serve}. */
  public FatBtreeNode node() {
    return node;
  }

  /** Stops the server; calls in progress may fail. */
  @Override
  public void close() {
    server.stop();
  }

  /** The node, for a request from another node (counted as a message received). */
  private FatBtreeNode served() throws IOException {
    FatBtreeNode n = servedForClient();
    n.counters().messagesReceived.incrementAndGet();
    return n;
  }

  private FatBtreeNode servedForClient() throws IOException {
    FatBtreeNode n = node;
    if (n == null) {
      throw new IOException("the Fat-Btree index server at " + address
          + " is not serving a node (not yet, or it was switched off)");
    }
    return n;
  }

  /**
   * Runs a request on the node; a failure crosses as an IOException that names the node and
   * this address (the RPC engine would otherwise send only the exception's class and text).
   */
  private <T> T call(String what, Callable<T> request) throws IOException {
    FatBtreeNode n = node;
    try {
      return request.call();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("Fat-Btree node " + (n == null ? "?" : n.nodeId()) + " at "
          + address + " failed " + what + ": " + e, e);
    }
  }

  @Override
  public int nodeId() throws IOException {
    return served().nodeId();
  }

  @Override
  public BytesWritable fetchPage(long pageId) throws IOException {
    FatBtreeNode n = served();
    return call("fetchPage " + pageId, () -> PageBytes.encode(n.fetchPage(pageId)));
  }

  @Override
  public PagePathWritable descendLocally(long pageId, String key, int level)
      throws IOException {
    FatBtreeNode n = served();
    return call("descendLocally " + pageId + " " + key, () -> new PagePathWritable(
        n.descendLocally(pageId, PathKey.fromStored(key), level)));
  }

  @Override
  public LeafReplyWritable lookupInLeaf(long leafId, String key) throws IOException {
    FatBtreeNode n = served();
    return call("lookupInLeaf " + leafId + " " + key, () -> new LeafReplyWritable(
        n.lookupInLeaf(leafId, PathKey.fromStored(key))));
  }

  @Override
  public LeafReplyWritable updateInLeaf(long leafId, String key, int owner, boolean remove)
      throws IOException {
    FatBtreeNode n = served();
    return call("updateInLeaf " + leafId + " " + key, () -> new LeafReplyWritable(
        n.updateInLeaf(leafId, PathKey.fromStored(key), owner, remove)));
  }

  @Override
  public LeafReplyWritable splitLeafAt(long leafId, String key) throws IOException {
    FatBtreeNode n = served();
    return call("splitLeafAt " + leafId + " " + key, () -> new LeafReplyWritable(
        n.splitLeafAt(leafId, PathKey.fromStored(key))));
  }

  @Override
  public LeafReplyWritable migrateLeaf(long leafId, int target) throws IOException {
    FatBtreeNode n = served();
    return call("migrateLeaf " + leafId + " to node " + target,
        () -> new LeafReplyWritable(n.migrateLeaf(leafId, target)));
  }

  @Override
  public void latchPage(long pageId) throws IOException {
    FatBtreeNode n = served();
    call("latchPage " + pageId, () -> {
      n.latchPage(pageId);
      return null;
    });
  }

  @Override
  public void releasePage(long pageId) throws IOException {
    FatBtreeNode n = served();
    call("releasePage " + pageId, () -> {
      n.releasePage(pageId);
      return null;
    });
  }

  @Override
  public void storePage(BytesWritable page) throws IOException {
    FatBtreeNode n = served();
    call("storePage", () -> {
      n.storePage(PageBytes.decode(page, "page sent to node " + n.nodeId() + " at " + address));
      return null;
    });
  }

  @Override
  public void dropPage(long pageId) throws IOException {
    FatBtreeNode n = served();
    call("dropPage " + pageId, () -> {
      n.dropPage(pageId);
      return null;
    });
  }

  @Override
  public RootRefWritable root() throws IOException {
    return new RootRefWritable(served().root());
  }

  @Override
  public void setRoot(RootRefWritable root) throws IOException {
    FatBtreeNode n = served();
    call("setRoot", () -> {
      n.setRoot(root.get());
      return null;
    });
  }

  // ------------------------------------------------------------------------------------------
  // IndexClientProtocol

  @Override
  public long lookup(String path) throws IOException {
    FatBtreeNode n = servedForClient();
    return call("lookup " + path, () -> {
      OptionalInt owner = n.lookup(PathKey.of(path));
      return owner.isPresent() ? owner.getAsInt() : NO_OWNER;
    });
  }

  @Override
  public long put(String path, int owner) throws IOException {
    FatBtreeNode n = servedForClient();
    return call("put " + path, () -> {
      OptionalInt previous = n.put(PathKey.of(path), owner);
      return previous.isPresent() ? previous.getAsInt() : NO_OWNER;
    });
  }

  @Override
  public boolean remove(String path) throws IOException {
    FatBtreeNode n = servedForClient();
    return call("remove " + path, () -> n.remove(PathKey.of(path)));
  }

  @Override
  public int leafNodeOf(String path) throws IOException {
    FatBtreeNode n = servedForClient();
    return call("leafNodeOf " + path, () -> n.leafNodeOf(PathKey.of(path)));
  }

  @Override
  public IndexEntriesWritable scanSubtree(String dir) throws IOException {
    FatBtreeNode n = servedForClient();
    return call("scanSubtree " + dir, () -> new IndexEntriesWritable(
        n.scanSubtree(PathKey.of(dir))));
  }

  @Override
  public void moveSubtree(String dir, int target) throws IOException {
    FatBtreeNode n = servedForClient();
    call("moveSubtree " + dir + " to node " + target, () -> {
      n.moveSubtree(PathKey.of(dir), target);
      return null;
    });
  }

  @Override
  public long getProtocolVersion(String protocol, long clientVersion) {
    return FatBtreeProtocol.versionID;
  }

  @Override
  public ProtocolSignature getProtocolSignature(String protocol, long clientVersion,
      int clientMethodsHash) throws IOException {
    return ProtocolSignature.getProtocolSignature(this, protocol, clientVersion,
        clientMethodsHash);
  }
}
