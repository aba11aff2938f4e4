package org.locus.ndcoupling.fatbtree.service;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.locus.ndcoupling.fatbtree.NodeCopies;
import org.locus.ndcoupling.fatbtree.NodeSet;
import org.locus.ndcoupling.fatbtree.NodeSwitchRules;
import org.locus.ndcoupling.fatbtree.transport.IndexAdminProtocol;
import org.locus.ndcoupling.fatbtree.transport.NodeSwitchProtocol;
import org.locus.ndcoupling.fatbtree.transport.RepeatedOnce;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;
import org.locus.ndcoupling.fatbtree.transport.ReturnShippedWritable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol of a switch of whole index nodes over RPC (docs/ndcoupling.md, "Fat-Btree
 * copies over RPC"): which node is asked for which step ({@link NodeSwitchProtocol}) in which
 * order, the gates of every node on closed around a switch. What is allowed is
 * {@link NodeSwitchRules}', the same policy as in one JVM ({@code NodeCopies}); where a node
 * is in its cycle is what the holder of its copy says ({@code copyState}). Served by every
 * index node as {@link IndexAdminProtocol}; the gear shifter asks one of them.
 *
 * <ul>
 *   <li><b>off</b>: close the gate of every node that is on; the node it copies stops
 *       mirroring to it and logs instead (the copy it keeps goes away with it); the node stops
 *       answering for its id; its holder starts an incarnation of it on the copy (logging
 *       changes) at an address of its own; every node that is on routes the id there; open
 *       every gate. Its index server may then stop.</li>
 *   <li><b>returning</b> (step 1, its index server up again on its address): the holder ships
 *       the changed pages to the node's own store and mirrors later writes there; the node it
 *       copies does the same for the copy it keeps; no gate, as in one JVM.</li>
 *   <li><b>back</b>: close the gates of the nodes that are on and of the returning node; the
 *       holder stops its incarnation; the node reopens its own store and answers at its own
 *       address; every node routes the id back, and the returning node learns every other
 *       route; open.</li>
 * </ul>
 *
 * The off node stops before its copy starts, and the copy stops before the node starts, so an
 * id never has two incarnations taking writes. Every step is idempotent, so a switch that
 * failed part way (or whose coordinator died, its gates opening by their lease) is completed by
 * running it again: {@link #nodeOff} of a node already off routes its id to the copy again, and
 * {@link #nodeBack} of a node already on runs every step once more, instead of refusing.
 * Switches asked of one coordinator are serialised; a second coordinator's switch is refused by
 * the first gate it finds held.
 */
public final class NodeSwitchCoordinator implements IndexAdminProtocol {

  private static final Logger LOG = LoggerFactory.getLogger(NodeSwitchCoordinator.class);

  private final Configuration conf;
  private final Map<Integer, InetSocketAddress> homes;
  private final NodeSwitchRules rules;
  private final long leaseMillis;
  private final Map<Integer, NodeSwitchProtocol> proxies = new ConcurrentHashMap<>();
  private final Map<Integer, NodeSwitchProtocol> repeating = new ConcurrentHashMap<>();

  /**
   * @param homes       every node's own index server
   * @param leaseMillis how long a node keeps its gate closed without hearing from us
   */
  public NodeSwitchCoordinator(Configuration conf, Map<Integer, InetSocketAddress> homes,
      long leaseMillis) {
    this.conf = new Configuration(conf);
    RPC.setProtocolEngine(this.conf, NodeSwitchProtocol.class, WritableRpcEngine.class);
    this.homes = new TreeMap<>(homes);
    this.rules = new NodeSwitchRules(NodeSet.of(homes.keySet()));
    this.leaseMillis = leaseMillis;
  }

  /** Node {@code node}'s switch steps: idempotent, so one failing in transport goes again. */
  private NodeSwitchProtocol at(int node) throws IOException {
    NodeSwitchProtocol steps = repeating.get(node);
    if (steps == null) {
      NodeSwitchProtocol proxy = RPC.getProxy(NodeSwitchProtocol.class,
          NodeSwitchProtocol.versionID, homes.get(node), conf);
      proxies.put(node, proxy);
      steps = RepeatedOnce.wrap(NodeSwitchProtocol.class, proxy, homes.get(node));
      repeating.put(node, steps);
    }
    return steps;
  }

  /**
   * Where {@code node} is, as the holder of its copy sees it. A holder whose server does not
   * answer is off (switched off whole), and then the node is on: the rules switch no node off
   * whose holder is off, nor a holder whose node is off.
   */
  public NodeCopies.State stateOf(int node) throws IOException {
    if (!rules.nodes().contains(node)) {
      throw new IllegalArgumentException("node " + node + " is not one of " + rules.nodes());
    }
    int holder = rules.holderOf(node);
    try {
      return NodeCopies.State.valueOf(at(holder).copyState(node));
    } catch (RemoteException e) {
      throw e;
    } catch (IOException e) {
      LOG.debug("node {}, holder of node {}'s copy, does not answer ({}): taken as off, so node"
          + " {} is on", holder, node, e.toString(), node);
      return NodeCopies.State.ON;
    }
  }

  private Map<Integer, NodeCopies.State> states() throws IOException {
    Map<Integer, NodeCopies.State> states = new TreeMap<>();
    for (int n : rules.nodes().toArray()) {
      states.put(n, stateOf(n));
    }
    return states;
  }

  @Override
  public synchronized void nodeOff(int node) throws IOException {
    Map<Integer, NodeCopies.State> states = states();
    // Off already: the holder serves, which it starts only after the node stopped and the node
    // it copies logs for it, so only the routes may be missing (the node's server may be down).
    boolean again = states.get(node) == NodeCopies.State.OFF;
    if (again) {
      LOG.warn("Fat-Btree node {} is off already; routing its id to its copy again", node);
    } else {
      refused(() -> rules.checkOff(node, states::get));
    }
    int holder = rules.holderOf(node);
    int copied = rules.copiedBy(node);
    List<Integer> on = on(states);
    runClosed("off-" + node, on, () -> {
      if (!again) {
        at(copied).logForHolder();
        at(node).stopOwn();
      }
      String copy = at(holder).startCopy(node);
      for (int n : on) {
        if (n != node) {
          at(n).route(node, copy);
        }
      }
    });
    LOG.info("Fat-Btree node {} is off; node {} answers for it", node, holder);
  }

  @Override
  public synchronized ReturnShippedWritable nodeReturning(int node) throws IOException {
    Map<Integer, NodeCopies.State> states = states();
    refused(() -> rules.checkReturning(node, states::get));
    ReturnShipped shipped = new ReturnShipped(at(rules.holderOf(node)).shipCopy(node).get(),
        at(rules.copiedBy(node)).shipToHolder().get());
    LOG.info("Fat-Btree node {} step 1: {}", node, shipped);
    return new ReturnShippedWritable(shipped);
  }

  @Override
  public synchronized void nodeBack(int node) throws IOException {
    Map<Integer, NodeCopies.State> states = states();
    if (states.get(node) == NodeCopies.State.ON) {
      LOG.warn("Fat-Btree node {} is on already; running its return again to complete it",
          node);
    } else {
      refused(() -> rules.checkBack(node, states::get));
    }
    int holder = rules.holderOf(node);
    List<Integer> gated = on(states);
    gated.add(node);
    runClosed("back-" + node, gated, () -> {
      at(holder).stopCopy(node);
      at(node).startOwn();
      String home = hostPort(homes.get(node));
      for (int n : gated) {
        at(n).route(node, home);
      }
      for (int other : rules.nodes().toArray()) {
        if (other != node) {
          // an off node's holder is on (the rules); an on node's may be off, so is not asked
          at(node).route(other, states.get(other) == NodeCopies.State.ON
              ? hostPort(homes.get(other)) : at(rules.holderOf(other)).copyAddress(other));
        }
      }
    });
    LOG.info("Fat-Btree node {} is back", node);
  }

  @Override
  public String state(int node) throws IOException {
    return stateOf(node).name();
  }

  /** The nodes that are on (their own incarnation answers), ascending. */
  private List<Integer> on(Map<Integer, NodeCopies.State> states) {
    List<Integer> on = new ArrayList<>();
    states.forEach((n, state) -> {
      if (state == NodeCopies.State.ON) {
        on.add(n);
      }
    });
    return on;
  }

  private interface Steps {
    void run() throws IOException;
  }

  /**
   * Closes the gates of {@code gated} in ascending node order, runs {@code steps}, opens every
   * gate closed (also when a step or a close failed), and reports the first failure.
   */
  private void runClosed(String what, List<Integer> gated, Steps steps) throws IOException {
    String id = what + "-" + UUID.randomUUID();
    List<Integer> closed = new ArrayList<>();
    IOException failure = null;
    try {
      for (int n : new TreeSet<>(gated)) {
        at(n).closeGate(id, leaseMillis);
        closed.add(n);
      }
      steps.run();
    } catch (IOException e) {
      failure = e;
    }
    for (int n : closed) {
      try {
        at(n).openGate(id);
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw new IOException("switch " + id + " failed (run it again to complete it): "
          + failure.getMessage(), failure);
    }
  }

  /** A refusal of the rules, as the IOException an RPC client gets. */
  private static void refused(Runnable check) throws IOException {
    try {
      check.run();
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private static String hostPort(InetSocketAddress address) {
    return address.getHostString() + ":" + address.getPort();
  }

  /** Stops the proxies to the nodes. */
  public void close() {
    proxies.values().forEach(RPC::stopProxy);
    proxies.clear();
    repeating.clear();
  }

  @Override
  public long getProtocolVersion(String protocol, long clientVersion) {
    return IndexAdminProtocol.versionID;
  }

  @Override
  public ProtocolSignature getProtocolSignature(String protocol, long clientVersion,
      int clientMethodsHash) throws IOException {
    return ProtocolSignature.getProtocolSignature(this, protocol, clientVersion,
        clientMethodsHash);
  }
}
