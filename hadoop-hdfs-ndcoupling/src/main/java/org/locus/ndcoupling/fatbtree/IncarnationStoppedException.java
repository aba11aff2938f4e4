package org.locus.ndcoupling.fatbtree;

/**
 * A client operation reached an incarnation of a node that {@link NodeCopies} has stopped: the
 * node was switched off (its copy answers for it now) or has taken its pages back from its copy.
 * Ask the node's current incarnation ({@link NodeCopies#serving}).
 */
public final class IncarnationStoppedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  IncarnationStoppedException(int node, String store) {
    super("this incarnation of Fat-Btree node " + node + " on " + store + " was stopped; ask"
        + " the node's current incarnation");
  }
}
