package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.locus.ndcoupling.fatbtree.Page;
import org.locus.ndcoupling.fatbtree.store.NodeFile;
import org.locus.ndcoupling.fatbtree.store.PageCodec;
import org.locus.ndcoupling.fatbtree.store.PageStore;

/**
 * The far side of a {@link org.locus.ndcoupling.fatbtree.store.CopiedPageStore} over RPC: a
 * store of node {@code node}'s pages kept by another node, written through
 * {@link PageMirrorProtocol} and never read from here (the copied store reads only the store it
 * serves from). A write returns once the other node has stored the page (written and, with
 * sync writes, fsynced), so a write mirrored here is acknowledged only after both stores have
 * it. A write that fails in transport is sent once more (each stores a value, so repeating is
 * harmless); a failure then is an {@link UncheckedIOException} naming the node, the store's
 * node and the address, and the tree operation that wrote the page fails with it.
 */
public final class RemotePageStore implements PageStore, AutoCloseable {

  private final int node;
  private final InetSocketAddress address;
  private final PageMirrorProtocol proxy;

  private RemotePageStore(int node, InetSocketAddress address, PageMirrorProtocol proxy) {
    this.node = node;
    this.address = address;
    this.proxy = proxy;
  }

  /** The store of {@code node}'s pages kept by the index server at {@code address}. */
  public static RemotePageStore connect(Configuration conf, int node, InetSocketAddress address)
      throws IOException {
    Configuration rpcConf = new Configuration(conf);
    RPC.setProtocolEngine(rpcConf, PageMirrorProtocol.class, WritableRpcEngine.class);
    return new RemotePageStore(node, address, RPC.getProxy(PageMirrorProtocol.class,
        PageMirrorProtocol.versionID, address, rpcConf));
  }

  private interface Write {
    void run() throws IOException;
  }

  private void write(String what, Write write) {
    try {
      try {
        write.run();
      } catch (IOException e) {
        if (e instanceof RemoteException) {
          throw e;
        }
        write.run();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("mirroring " + what + " of node " + node + " to "
          + address + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void put(Page page) {
    BytesWritable bytes = new BytesWritable(PageCodec.encode(page));
    write("page " + page.id(), () -> proxy.mirrorPage(node, bytes));
  }

  @Override
  public void remove(long id) {
    write("the drop of page " + id, () -> proxy.mirrorDrop(node, id));
  }

  @Override
  public void putNodeFile(NodeFile file) {
    BytesWritable bytes = new BytesWritable(file.encode());
    write("the node file", () -> proxy.mirrorNodeFile(node, bytes));
  }

  private UnsupportedOperationException writeOnly() {
    return new UnsupportedOperationException(describe() + " is written through RPC only; read"
        + " it on the node that keeps it");
  }

  @Override
  public Page get(long id) {
    throw writeOnly();
  }

  @Override
  public Collection<Page> all() {
    throw writeOnly();
  }

  @Override
  public int size() {
    throw writeOnly();
  }

  @Override
  public NodeFile nodeFile() {
    throw writeOnly();
  }

  @Override
  public String describe() {
    return "store of node " + node + "'s pages at " + address;
  }

  @Override
  public void close() {
    RPC.stopProxy(proxy);
  }
}
