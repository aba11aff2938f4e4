package org.locus.ndcoupling.fatbtree;

/**
 * Where the copy of a node's pages lives: on the next node of the ring, in ascending node id,
 * the last node's on the first. This is where a coupled node's partition has its metadata copy
 * (its HA standby NameNode, docs/ndcoupling.md "Metadata copies", {@code PartitionReplicas} in
 * locus-netns) when index node K is the one inside partition nsK's NameNode, so the copy of an
 * index node's pages sits beside the copy of its partition and takes over with it.
 */
public final class CopyRing {

  private CopyRing() {
  }

  /** The node holding {@code node}'s copy among {@code nodes} (two or more). */
  public static int holderOf(NodeSet nodes, int node) {
    if (!nodes.contains(node)) {
      throw new IllegalArgumentException("node " + node + " is not one of " + nodes);
    }
    if (nodes.size() < 2) {
      throw new IllegalArgumentException("a copy needs a second node; the tree has " + nodes);
    }
    int[] ids = nodes.toArray();
    for (int id : ids) {
      if (id > node) {
        return id;
      }
    }
    return ids[0];
  }
}
