package org.locus.ndcoupling.gear;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * Which DataNodes are on in each gear, and which always-on node stands in for each node that a
 * low gear switches off (seed 004 §4.3: "the active nodes that maintain their data's
 * replicas").
 *
 * <p>Groups are cumulative: gear 0 is the first group, the covering set that is never switched
 * off; gear k is the first k+1 groups. A node of group g &gt; 0 has a stand-in in a lower group,
 * which takes the replicas placement would give the node while it is off. Immutable.
 */
public final class GearPlan {
  private final List<List<String>> groups;
  private final Map<String, String> standIns;

  private GearPlan(List<List<String>> groups, Map<String, String> standIns) {
    this.groups = groups;
    this.standIns = standIns;
  }

  /** @return the plan in {@code conf}, or empty when no plan is configured (gears off) */
  public static Optional<GearPlan> from(Configuration conf) {
    String plan = conf.getTrimmed(NdCouplingConfigKeys.GEAR_PLAN, "");
    if (plan.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(parse(plan, conf.getTrimmed(NdCouplingConfigKeys.GEAR_STAND_INS, "")));
  }

  /**
   * @param plan groups separated by ';', hosts by ','
   * @param standIns {@code host=standIn} pairs separated by ',' (may be empty)
   * @throws IllegalArgumentException naming the key and what is wrong
   */
  public static GearPlan parse(String plan, String standIns) {
    List<List<String>> groups = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (String group : plan.split(";", -1)) {
      List<String> hosts = new ArrayList<>();
      for (String host : group.split(",")) {
        String h = host.trim();
        if (h.isEmpty()) {
          continue;
        }
        if (!seen.add(h)) {
          throw bad(NdCouplingConfigKeys.GEAR_PLAN, "host " + h + " is named twice");
        }
        hosts.add(h);
      }
      if (hosts.isEmpty()) {
        throw bad(NdCouplingConfigKeys.GEAR_PLAN, "gear group " + groups.size()
            + " names no host (groups are separated by ';', hosts by ',')");
      }
      groups.add(List.copyOf(hosts));
    }
    Map<String, String> named = parseStandIns(standIns);
    Map<String, String> resolved = new LinkedHashMap<>();
    List<String> covering = groups.get(0);
    int turn = 0;
    for (int g = 1; g < groups.size(); g++) {
      for (String host : groups.get(g)) {
        String standIn = named.remove(host);
        if (standIn == null) {
          standIn = covering.get(turn++ % covering.size());
        } else if (groupOf(groups, standIn) < 0 || groupOf(groups, standIn) >= g) {
          throw bad(NdCouplingConfigKeys.GEAR_STAND_INS, "stand-in " + standIn + " of " + host
              + " must be a host of a lower gear group than " + host + "'s (" + g + ")");
        }
        resolved.put(host, standIn);
      }
    }
    if (!named.isEmpty()) {
      throw bad(NdCouplingConfigKeys.GEAR_STAND_INS, "names hosts that are not in a group above"
          + " gear 0 of " + NdCouplingConfigKeys.GEAR_PLAN + ": " + named.keySet());
    }
    return new GearPlan(List.copyOf(groups), Collections.unmodifiableMap(resolved));
  }

  private static Map<String, String> parseStandIns(String standIns) {
    Map<String, String> named = new LinkedHashMap<>();
    for (String pair : standIns.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      String[] parts = pair.split("=", -1);
      if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
        throw bad(NdCouplingConfigKeys.GEAR_STAND_INS, "'" + pair.trim()
            + "' is not host=standIn");
      }
      named.put(parts[0].trim(), parts[1].trim());
    }
    return named;
  }

  private static int groupOf(List<List<String>> groups, String host) {
    for (int g = 0; g < groups.size(); g++) {
      if (groups.get(g).contains(host)) {
        return g;
      }
    }
    return -1;
  }

  private static IllegalArgumentException bad(String key, String what) {
    return new IllegalArgumentException(key + ": " + what);
  }

  /**
   * @return the two-gear plan {@code cluster up --feature ndcoupling} uses when none is given:
   *     the first half of the hosts (rounded up) is gear 0, the covering set; gear 1 adds the
   *     rest, each node standing in for one of them in turn
   */
  public static String halves(List<String> hosts) {
    if (hosts.size() < 2) {
      throw new IllegalArgumentException("a gear plan needs at least two nodes, got "
          + hosts.size());
    }
    int low = (hosts.size() + 1) / 2;
    return String.join(",", hosts.subList(0, low)) + ";"
        + String.join(",", hosts.subList(low, hosts.size()));
  }

  /**
   * @return the two-gear plan of coupled nodes in ring order: every other node (the first, the
   *     third, ...) is gear 0, the rest gear 1. A partition's replicas lie on consecutive nodes
   *     of the ring, so every partition with two or more replicas keeps one in gear 0.
   */
  public static String alternating(List<String> ring) {
    if (ring.size() < 2) {
      throw new IllegalArgumentException("a gear plan needs at least two nodes, got "
          + ring.size());
    }
    List<String> low = new ArrayList<>();
    List<String> high = new ArrayList<>();
    for (int i = 0; i < ring.size(); i++) {
      (i % 2 == 0 ? low : high).add(ring.get(i));
    }
    return String.join(",", low) + ";" + String.join(",", high);
  }

  /**
   * @return the stand-ins of {@link #alternating}: each node of gear 1 is covered by the next
   *     node of the ring (in gear 0), the node that holds its partition's first replica set
   */
  public static String ringStandIns(List<String> ring) {
    List<String> pairs = new ArrayList<>();
    for (int i = 1; i < ring.size(); i += 2) {
      pairs.add(ring.get(i) + "=" + ring.get((i + 1) % ring.size()));
    }
    return String.join(",", pairs);
  }

  /** @return the highest gear (every node on) */
  public int topGear() {
    return groups.size() - 1;
  }

  /** @return every host of the plan, gear 0's first */
  public List<String> allHosts() {
    List<String> all = new ArrayList<>();
    groups.forEach(all::addAll);
    return all;
  }

  /** @return the hosts that are on in gear {@code level} */
  public Set<String> activeIn(int level) {
    checkLevel(level);
    Set<String> active = new LinkedHashSet<>();
    for (int g = 0; g <= level; g++) {
      active.addAll(groups.get(g));
    }
    return active;
  }

  /** @return the hosts of the plan that are off in gear {@code level} */
  public Set<String> offIn(int level) {
    Set<String> off = new LinkedHashSet<>(allHosts());
    off.removeAll(activeIn(level));
    return off;
  }

  /** @return the group (lowest gear) that switches this host on, or -1 when not in the plan */
  public int groupOf(String host) {
    return groupOf(groups, host);
  }

  /** @return whether the plan names this host */
  public boolean contains(String host) {
    return groupOf(groups, host) >= 0;
  }

  /**
   * @return the node that takes {@code host}'s replicas while it is off in gear {@code level}:
   *     its stand-in, or the stand-in's stand-in while that one is off too
   */
  public String standInFor(String host, int level) {
    Set<String> active = activeIn(level);
    String node = host;
    while (!active.contains(node)) {
      node = standIns.get(node);
      if (node == null) {
        throw new IllegalArgumentException(host + " is not a host of the gear plan");
      }
    }
    return node;
  }

  /** @throws IllegalArgumentException when {@code level} is not a gear of this plan */
  public void checkLevel(int level) {
    if (level < 0 || level > topGear()) {
      throw new IllegalArgumentException("gear " + level + " does not exist: the plan ("
          + NdCouplingConfigKeys.GEAR_PLAN + ") has gears 0 to " + topGear());
    }
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (int g = 0; g < groups.size(); g++) {
      text.append(g == 0 ? "" : "; ").append("gear ").append(g).append(" +")
          .append(String.join(",", groups.get(g)));
    }
    return text.toString();
  }
}
