package org.locus.ndcoupling.gear;

import java.util.List;
import java.util.Map;

import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * The keys that make gears run on coupled nodes (a NameNode per node, one partition each): the
 * partition rule ahead of the gear rule in {@code locus.placement.rules}, and, unless given, a
 * plan whose gear 0 is every other node of the ring with each node of gear 1 covered by the next
 * one ({@link GearPlan#alternating}, {@link GearPlan#ringStandIns}). With replicas on
 * consecutive nodes of the ring, every partition keeps a replica in gear 0.
 */
public final class CoupledNodeKeys {
  /** The placement rule list key of the router (module hadoop-hdfs-placement). */
  public static final String PLACEMENT_RULES = "locus.placement.rules";
  /** The partition rule's class name, listed first. */
  public static final String PARTITION_RULE =
      "org.apache.hadoop.hdfs.server.blockmanagement.PartitionPlacementRule";

  private CoupledNodeKeys() {
  }

  /**
   * Adds to {@code keys} what they lack of the coupled nodes' gear keys.
   *
   * @param ring the nodes' hosts in ring order (node1, node2, ...: the order of
   *     {@code dfs.nameservices})
   */
  public static void add(Map<String, String> keys, List<String> ring) {
    if (!keys.containsKey(NdCouplingConfigKeys.GEAR_PLAN) && ring.size() >= 2) {
      keys.put(NdCouplingConfigKeys.GEAR_PLAN, GearPlan.alternating(ring));
      keys.putIfAbsent(NdCouplingConfigKeys.GEAR_STAND_INS, GearPlan.ringStandIns(ring));
    }
    String rules = keys.getOrDefault(PLACEMENT_RULES, "").trim();
    if (!List.of(rules.split("\\s*,\\s*")).contains(PARTITION_RULE)) {
      keys.put(PLACEMENT_RULES, rules.isEmpty() ? PARTITION_RULE : PARTITION_RULE + "," + rules);
    }
  }
}
