package org.locus.ndcoupling.fatbtree;

/**
 * How a node reaches the other nodes of its Fat-Btree. The in-process transport hands out the
 * peers' objects wrapped in message counters; an RPC transport hands out proxies.
 */
public interface PeerTransport {

  /** Every node of the tree (the root's S). */
  NodeSet nodes();

  /** The peer {@code to}, as seen by {@code from} (messages are counted against both). */
  IndexPeer peer(int from, int to);
}
