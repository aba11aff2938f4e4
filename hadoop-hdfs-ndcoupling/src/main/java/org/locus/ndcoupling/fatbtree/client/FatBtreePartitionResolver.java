package org.locus.ndcoupling.fatbtree.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.hadoop.conf.Configuration;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.transport.IndexClient;
import org.locus.ndcoupling.fatbtree.transport.RpcTransport;

/**
 * Which partition serves a path, answered by the Fat-Btree index (FBB, seed 004 §4.2.2; issue 43
 * item 3): the client side of a coupled cluster whose NameNodes each host an index node. A
 * resolver talks to one index node, normally the one on the client's own node; that node
 * descends through its copies of the upper pages and forwards at most once, to the node
 * holding the key's leaf. Partitions are numbers: partition {@code k} is the nameservice the
 * caller maps it to ({@code nsk} on a netns cluster), and an index node id is its partition's
 * number, so a subtree assigned to partition {@code k} keeps its leaves on node {@code k}.
 *
 * <p>The index holds a key per file or directory the client registered. A path that is not in
 * the index belongs to the partition of its nearest registered ancestor, so a directory
 * assigned to a partition ({@link #assignSubtree}) covers what is created below it before (or
 * without) each file's own entry. This class decides nothing about placement: the caller
 * chooses the partition of a new file and registers it.
 *
 * <p>A mount-table file system with a pluggable resolver can call {@link #partitionOf} for
 * every path it is asked about and {@link #list} to merge a directory across partitions.
 */
public final class FatBtreePartitionResolver implements Closeable {

  private final IndexClient client;

  private FatBtreePartitionResolver(IndexClient client) {
    this.client = client;
  }

  /**
   * Connects to index node {@code nodeId}, found in {@code locus.ndcoupling.index.peers}.
   *
   * @throws IllegalArgumentException naming the key when it is unset or lacks the node
   */
  public static FatBtreePartitionResolver connect(Configuration conf, int nodeId)
      throws IOException {
    String list = conf.getTrimmed(NdCouplingConfigKeys.INDEX_PEERS, "");
    if (list.isEmpty()) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.INDEX_PEERS + " is not set: the"
          + " client needs the index servers (a cluster up with --metadata fatbtree sets it)");
    }
    Map<Integer, InetSocketAddress> peers =
        RpcTransport.parsePeers(list, NdCouplingConfigKeys.INDEX_PEERS);
    InetSocketAddress address = peers.get(nodeId);
    if (address == null) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.INDEX_PEERS + " lists no index"
          + " node " + nodeId + ": " + list);
    }
    return at(conf, address);
  }

  /** Talks to the index server at {@code address}. */
  public static FatBtreePartitionResolver at(Configuration conf, InetSocketAddress address)
      throws IOException {
    return new FatBtreePartitionResolver(IndexClient.connect(conf, address));
  }

  /**
   * The partition of {@code path}: its own entry, else its nearest registered ancestor's;
   * empty when neither it nor any ancestor is in the index.
   */
  public OptionalInt partitionOf(String path) throws IOException {
    PathKey key = PathKey.of(path);
    while (true) {
      OptionalInt owner = client.lookup(key.path());
      if (owner.isPresent() || key.path().equals("/")) {
        return owner;
      }
      key = PathKey.of(parent(key.path()));
    }
  }

  /** The partition of a path that must have its own entry (a registered file), if it has. */
  public OptionalInt entryOf(String path) throws IOException {
    return client.lookup(PathKey.of(path).path());
  }

  /** Records that {@code partition} serves {@code path} (after creating it there). */
  public void register(String path, int partition) throws IOException {
    client.put(PathKey.of(path).path(), partition);
  }

  /** Forgets {@code path} (after deleting it); whether it was in the index. */
  public boolean unregister(String path) throws IOException {
    return client.remove(PathKey.of(path).path());
  }

  /**
   * Gives {@code dir} and everything below it to {@code partition}: registers the directory and
   * moves the leaves of its subtree to index node {@code partition}, so entries added below it
   * later are inserted, split and looked up on the partition's own node.
   */
  public void assignSubtree(String dir, int partition) throws IOException {
    String path = PathKey.of(dir).path();
    client.put(path, partition);
    client.moveSubtree(path, partition);
  }

  /**
   * The direct entries of {@code dir} in name order with their partitions: the subtree's
   * leaves read in key order along their right links, whichever nodes they are on, and only
   * the keys one level below {@code dir} kept.
   */
  public List<IndexEntry> list(String dir) throws IOException {
    String path = PathKey.of(dir).path();
    String prefix = path.equals("/") ? "/" : path + "/";
    List<IndexEntry> children = new ArrayList<>();
    for (IndexEntry e : client.scanSubtree(path)) {
      String key = e.key().path();
      if (key.startsWith(prefix) && key.indexOf('/', prefix.length()) < 0
          && key.length() > prefix.length()) {
        children.add(e);
      }
    }
    return children;
  }

  /** Every registered path at or below {@code dir}, in key order, with its partition. */
  public List<IndexEntry> subtree(String dir) throws IOException {
    return client.scanSubtree(PathKey.of(dir).path());
  }

  /** The index node holding the leaf of {@code path}: where its lookup is answered. */
  public int leafNodeOf(String path) throws IOException {
    return client.leafNodeOf(PathKey.of(path).path());
  }

  private static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
  }

  @Override
  public void close() {
    client.close();
  }
}
