package org.locus.ndcoupling.fatbtree.transport;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.IndexPeer;
import org.locus.ndcoupling.fatbtree.NodeSet;
import org.locus.ndcoupling.fatbtree.PeerTransport;

/**
 * Nodes of one Fat-Btree in one JVM: a request is a method call on the peer's object, run on
 * the asking thread, counted as a message received by the peer (the asker counts it as sent).
 * A node restarted from its directory is registered again and replaces the old object.
 */
public final class InProcessTransport implements PeerTransport {

  private final NodeSet nodes;
  private final Map<Integer, FatBtreeNode> registered = new ConcurrentHashMap<>();

  public InProcessTransport(NodeSet nodes) {
    this.nodes = nodes;
  }

  /** Makes {@code node} the one answering for its id (replacing an earlier incarnation). */
  public void register(FatBtreeNode node) {
    if (!nodes.contains(node.nodeId())) {
      throw new IllegalArgumentException("node " + node.nodeId() + " is not one of " + nodes);
    }
    registered.put(node.nodeId(), node);
  }

  @Override
  public NodeSet nodes() {
    return nodes;
  }

  @Override
  public IndexPeer peer(int from, int to) {
    FatBtreeNode target = registered.get(to);
    if (target == null) {
      throw new IllegalStateException("node " + from + " asked node " + to
          + ", which is not running");
    }
    return new CountingPeer(target, target.counters());
  }
}
