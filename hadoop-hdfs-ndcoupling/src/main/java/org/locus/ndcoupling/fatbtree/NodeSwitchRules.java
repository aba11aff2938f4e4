package org.locus.ndcoupling.fatbtree;

import java.util.function.IntFunction;

/**
 * Policy: which switches of whole nodes are allowed, given where every node is in its
 * off-and-on cycle ({@link NodeCopies.State}). One class decides it for the tree in one JVM
 * ({@link NodeCopies}) and for nodes over RPC (the switch coordinator in
 * {@code service.NodeSwitchCoordinator}); the mechanism of each switch is theirs.
 *
 * <ul>
 *   <li>A node may go off only if it is on, its copy's holder ({@link CopyRing}) is on, and no
 *       copy it holds is answering for another node: otherwise some key would be left without
 *       an incarnation answering for it.</li>
 *   <li>Step 1 (returning) only for a node that is off; back only for a node whose step 1 is
 *       done; a restart only of a node that is on.</li>
 * </ul>
 *
 * Every refusal is an {@link IllegalStateException} naming the node, its state and why.
 */
public final class NodeSwitchRules {

  private final NodeSet nodes;

  /** The rules of a tree over {@code nodes} (two or more: a copy needs a second node). */
  public NodeSwitchRules(NodeSet nodes) {
    this.nodes = nodes;
    for (int n : nodes.toArray()) {
      CopyRing.holderOf(nodes, n);
    }
  }

  /** Every node of the tree. */
  public NodeSet nodes() {
    return nodes;
  }

  /** The node holding {@code n}'s copy. */
  public int holderOf(int n) {
    return CopyRing.holderOf(nodes, n);
  }

  /** The node whose copy {@code holder} keeps (its predecessor on the ring). */
  public int copiedBy(int holder) {
    for (int n : nodes.toArray()) {
      if (holderOf(n) == holder) {
        return n;
      }
    }
    throw new IllegalArgumentException("node " + holder + " is not one of " + nodes);
  }

  /** Refuses switching {@code n} off unless it, its holder and the copies it holds allow. */
  public void checkOff(int n, IntFunction<NodeCopies.State> states) {
    require(n, states, NodeCopies.State.ON, "switched off");
    int holder = holderOf(n);
    if (states.apply(holder) != NodeCopies.State.ON) {
      throw new IllegalStateException("node " + n + " cannot be switched off: its copy is on"
          + " node " + holder + ", which is " + states.apply(holder));
    }
    for (int p : nodes.toArray()) {
      if (p != n && holderOf(p) == n && states.apply(p) != NodeCopies.State.ON) {
        throw new IllegalStateException("node " + n + " cannot be switched off: it holds the"
            + " copy answering for node " + p + ", which is " + states.apply(p));
      }
    }
  }

  /** Refuses step 1 for {@code n} unless it is off. */
  public void checkReturning(int n, IntFunction<NodeCopies.State> states) {
    require(n, states, NodeCopies.State.OFF, "returning");
  }

  /** Refuses taking {@code n} back unless its step 1 is done. */
  public void checkBack(int n, IntFunction<NodeCopies.State> states) {
    require(n, states, NodeCopies.State.RETURNING, "back");
  }

  /** Refuses restarting {@code n} unless it is on. */
  public void checkRestart(int n, IntFunction<NodeCopies.State> states) {
    require(n, states, NodeCopies.State.ON, "restarted");
  }

  private void require(int n, IntFunction<NodeCopies.State> states, NodeCopies.State expected,
      String what) {
    if (!nodes.contains(n)) {
      throw new IllegalArgumentException("node " + n + " is not one of " + nodes);
    }
    NodeCopies.State state = states.apply(n);
    if (state != expected) {
      throw new IllegalStateException("node " + n + " is " + state + ", so it cannot be "
          + what + " (it must be " + expected + ")");
    }
  }
}
