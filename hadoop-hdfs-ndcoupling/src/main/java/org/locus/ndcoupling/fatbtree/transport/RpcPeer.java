package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import org.apache.hadoop.ipc.RemoteException;
import org.locus.ndcoupling.fatbtree.IndexPeer;
import org.locus.ndcoupling.fatbtree.LeafReply;
import org.locus.ndcoupling.fatbtree.Page;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.RootRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A peer reached over Hadoop RPC. {@link IndexPeer}'s methods throw no checked exceptions (the
 * tree logic is transport-neutral), so a failed call becomes an UncheckedIOException naming the
 * asking node, the peer and its address; the IOException from the wire is its cause.
 *
 * <p>A call that fails in transport (the peer did not answer, as opposed to a
 * {@link RemoteException}, which it did) is sent once more if it is safe to repeat: reads, and
 * writes that store a value the caller holds the latch for ({@code storePage}, {@code dropPage},
 * {@code setRoot}). Hadoop's RPC client keeps one connection per address, and after a peer
 * restarted on the same address the first call still goes out on the dead connection. Latches,
 * releases and leaf operations are not repeated: a lost answer does not say whether they were
 * applied, and applying them twice would change the tree or the latch count.
 */
final class RpcPeer implements IndexPeer {

  private static final Logger LOG = LoggerFactory.getLogger(RpcPeer.class);

  private final int from;
  private final int to;
  private final InetSocketAddress address;
  private final FatBtreeProtocol proxy;

  RpcPeer(int from, int to, InetSocketAddress address, FatBtreeProtocol proxy) {
    this.from = from;
    this.to = to;
    this.address = address;
    this.proxy = proxy;
  }

  /** One remote call, or the reason it failed. */
  private interface Call<T> {
    T run() throws IOException;
  }

  private <T> T call(String what, Call<T> call) {
    return call(what, call, false);
  }

  /** A call that is safe to send twice: see the class comment. */
  private <T> T repeatable(String what, Call<T> call) {
    return call(what, call, true);
  }

  private <T> T call(String what, Call<T> call, boolean repeatable) {
    try {
      try {
        return call.run();
      } catch (IOException e) {
        if (!repeatable || e instanceof RemoteException) {
          throw e;
        }
        LOG.debug("Fat-Btree node {}: {} to node {} at {} failed in transport ({}); once more",
            from, what, to, address, e.toString());
        return call.run();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Fat-Btree node " + from + " asking node " + to + " at "
          + address + " to " + what + ": " + e.getMessage(), e);
    }
  }

  private String source() {
    return "page from node " + to + " at " + address;
  }

  @Override
  public int nodeId() {
    return to;
  }

  @Override
  public Page fetchPage(long pageId) {
    return repeatable("fetch page " + pageId,
        () -> PageBytes.decode(proxy.fetchPage(pageId), source()));
  }

  @Override
  public List<Page> descendLocally(long pageId, PathKey key, int level) {
    return repeatable("descend from page " + pageId + " for " + key,
        () -> proxy.descendLocally(pageId, key.path(), level).decode(source()));
  }

  @Override
  public LeafReply lookupInLeaf(long leafId, PathKey key) {
    return repeatable("look up " + key + " in leaf " + leafId,
        () -> proxy.lookupInLeaf(leafId, key.path()).get());
  }

  @Override
  public LeafReply updateInLeaf(long leafId, PathKey key, int owner, boolean remove) {
    return call((remove ? "remove " : "put ") + key + " in leaf " + leafId,
        () -> proxy.updateInLeaf(leafId, key.path(), owner, remove).get());
  }

  @Override
  public LeafReply splitLeafAt(long leafId, PathKey key) {
    return call("split leaf " + leafId + " at " + key,
        () -> proxy.splitLeafAt(leafId, key.path()).get());
  }

  @Override
  public LeafReply migrateLeaf(long leafId, int target) {
    return call("move leaf " + leafId + " to node " + target,
        () -> proxy.migrateLeaf(leafId, target).get());
  }

  @Override
  public void latchPage(long pageId) {
    call("latch page " + pageId, () -> {
      proxy.latchPage(pageId);
      return null;
    });
  }

  @Override
  public void releasePage(long pageId) {
    call("release page " + pageId, () -> {
      proxy.releasePage(pageId);
      return null;
    });
  }

  @Override
  public void storePage(Page page) {
    repeatable("store page " + page.id(), () -> {
      proxy.storePage(PageBytes.encode(page));
      return null;
    });
  }

  @Override
  public void dropPage(long pageId) {
    repeatable("drop page " + pageId, () -> {
      proxy.dropPage(pageId);
      return null;
    });
  }

  @Override
  public RootRef root() {
    return repeatable("read its root pointer", () -> proxy.root().get());
  }

  @Override
  public void setRoot(RootRef root) {
    repeatable("set its root pointer to " + root, () -> {
      proxy.setRoot(new RootRefWritable(root));
      return null;
    });
  }
}
