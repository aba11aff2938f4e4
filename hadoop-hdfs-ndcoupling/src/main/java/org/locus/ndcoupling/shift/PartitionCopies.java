package org.locus.ndcoupling.shift;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.locus.ndcoupling.rpc.GearProtocol;

/**
 * The partitions whose metadata has a copy (an HA pair of NameNodes, each with its gear
 * service), as a gear shift needs them: which NameNode of a partition is active now, which are
 * standbys, which partitions live on the nodes a shift switches off or on, handing a partition
 * to its copy before its node goes off and back once the node has caught up.
 *
 * <p>A NameNode that does not answer (its node is off) is neither active nor standby.
 */
public final class PartitionCopies {
  private static final long POLL_MS = 200;
  private static final long RETRY_MS = 1000;

  private final Map<String, Map<String, GearProtocol>> nameNodes;
  private final Map<String, String> homeHosts;
  private final PartitionHandOver handOver;
  private final long timeoutMs;

  /**
   * @param nameNodes each partition's NameNodes' gear services by NameNode id, home first
   * @param homeHosts each partition's own node, as the gear plan names hosts
   */
  public PartitionCopies(Map<String, Map<String, GearProtocol>> nameNodes,
      Map<String, String> homeHosts, PartitionHandOver handOver, long timeoutMs) {
    this.nameNodes = new LinkedHashMap<>(nameNodes);
    this.homeHosts = new LinkedHashMap<>(homeHosts);
    this.handOver = handOver;
    this.timeoutMs = timeoutMs;
  }

  /** @return the partitions with a copy */
  public Collection<String> partitions() {
    return nameNodes.keySet();
  }

  /** @return the partitions whose own node is one of {@code hosts} */
  public List<String> homedOn(Collection<String> hosts) {
    List<String> out = new ArrayList<>();
    homeHosts.forEach((ns, host) -> {
      if (nameNodes.containsKey(ns) && hosts.contains(host)) {
        out.add(ns);
      }
    });
    return out;
  }

  /** @return the id of {@code ns}'s NameNode on its own node */
  public String homeId(String ns) {
    return nameNodes.get(ns).keySet().iterator().next();
  }

  /** @return the id of {@code ns}'s copy (the first NameNode that is not the home one) */
  public String copyId(String ns) {
    return nameNodes.get(ns).keySet().stream().skip(1).findFirst().orElseThrow();
  }

  /** @return {@code ns}'s active NameNode's gear service, waiting for a failover under way */
  public GearProtocol active(String ns) throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      for (GearProtocol gear : nameNodes.get(ns).values()) {
        if (state(gear).map(s -> "active".equals(s.get("ha-state"))).orElse(false)) {
          return gear;
        }
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("no NameNode of " + ns + " is active after " + timeoutMs + " ms");
      }
      pause();
    }
  }

  /** @return the gear services of every NameNode that answers and is not active */
  public List<GearProtocol> standbys() {
    List<GearProtocol> out = new ArrayList<>();
    for (Map<String, GearProtocol> byId : nameNodes.values()) {
      for (GearProtocol gear : byId.values()) {
        if (state(gear).map(s -> !"active".equals(s.get("ha-state"))).orElse(false)) {
          out.add(gear);
        }
      }
    }
    return out;
  }

  /**
   * Has the returning nodes on {@code hosts} rejoin every partition's active NameNode: its edit
   * log rolled first ({@link PartitionHandOver#rollEdits}), so their JournalNodes take its
   * writes again at once (otherwise, for up to the standby's roll period, one more lost node
   * could stop it), then their DataNodes asked to report afresh
   * ({@link PartitionHandOver#refreshReturning}): one that became active while they were off
   * would otherwise keep the gear-up's extra stand-in replicas for hours.
   */
  public void refreshReturning(Collection<String> hosts) throws IOException {
    for (String ns : partitions()) {
      GearProtocol active = active(ns);
      for (Map.Entry<String, GearProtocol> nameNode : nameNodes.get(ns).entrySet()) {
        if (nameNode.getValue() == active) {
          handOver.rollEdits(ns, nameNode.getKey());
          handOver.refreshReturning(ns, nameNode.getKey(), hosts);
        }
      }
    }
  }

  /** Hands {@code ns} to its copy, unless the copy is active already. */
  public void moveToCopy(String ns) throws IOException {
    moveTo(ns, copyId(ns));
  }

  /** Hands {@code ns} back to the NameNode on its own node, unless that one is active. */
  public void moveHome(String ns) throws IOException {
    moveTo(ns, homeId(ns));
  }

  /**
   * Hands {@code ns} to NameNode {@code id}, trying again while it is refused (a NameNode just
   * started is not a failover target until its ZKFC has seen it healthy) until the timeout.
   */
  private void moveTo(String ns, String id) throws IOException {
    GearProtocol target = nameNodes.get(ns).get(id);
    if (state(target).map(s -> "active".equals(s.get("ha-state"))).orElse(false)) {
      return;
    }
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      try {
        handOver.makeActive(ns, id);
        break;
      } catch (IOException e) {
        if (System.currentTimeMillis() + RETRY_MS > deadline) {
          throw new IOException(ns + " could not be handed to its NameNode " + id + " within "
              + timeoutMs + " ms: " + e.getMessage(), e);
        }
        try {
          Thread.sleep(RETRY_MS);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", interrupted);
        }
      }
    }
    if (active(ns) != target) {
      throw new IOException(ns + " was handed to its NameNode " + id + ", but another is active");
    }
  }

  /**
   * Waits until {@code ns}'s home NameNode, started again, answers as a standby, has applied
   * every edit its partition's active NameNode had written by then and has left safe mode (the
   * DataNodes have reported its blocks): the returning node catching up on the metadata that
   * changed while it was off. Only then may the partition go back to it: a NameNode made
   * active in safe mode discards the fresh block reports the hand-over asks for, and then keeps
   * over-replicated blocks for hours. A NameNode reads the edits it missed from
   * the JournalNodes while it starts, before it answers, so the time runs from the node's
   * switch-on.
   *
   * @param switchedOnNanos {@link System#nanoTime} when the node was switched on
   * @return the milliseconds from the switch-on until the NameNode had caught up, the id of the
   *     last edit it had to apply (the active's last when the returning one answered), and the
   *     milliseconds from its first answer until it had caught up (the part after its start)
   */
  public long[] awaitHomeCaughtUp(String ns, long switchedOnNanos) throws IOException {
    GearProtocol home = nameNodes.get(ns).get(homeId(ns));
    long deadline = System.currentTimeMillis() + timeoutMs;
    Map<String, String> first;
    while (true) {
      Optional<Map<String, String>> answer = state(home);
      if (answer.isPresent() && "standby".equals(answer.get().get("ha-state"))) {
        first = answer.get();
        break;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(ns + "'s NameNode " + homeId(ns) + " did not come back as a"
            + " standby within " + timeoutMs + " ms" + answer.map(s -> " (it is "
                + s.get("ha-state") + ")").orElse(" (it does not answer)"));
      }
      pause();
    }
    long answered = System.nanoTime();
    long target = Long.parseLong(GearShifter.parse(active(ns).status()).get("txid"));
    Map<String, String> now = first;
    while (Long.parseLong(now.get("txid")) < target
        || Boolean.parseBoolean(now.get("safemode"))) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(ns + "'s NameNode " + homeId(ns) + " applied edits up to "
            + now.get("txid") + " of " + target + (Boolean.parseBoolean(now.get("safemode"))
                ? " and is still in safe mode" : "") + " after " + timeoutMs + " ms");
      }
      pause();
      now = GearShifter.parse(home.status());
    }
    long end = System.nanoTime();
    return new long[] {(end - switchedOnNanos) / 1_000_000, target, (end - answered) / 1_000_000};
  }

  private static Optional<Map<String, String>> state(GearProtocol gear) {
    try {
      return Optional.of(GearShifter.parse(gear.status()));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static void pause() throws IOException {
    try {
      Thread.sleep(POLL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
