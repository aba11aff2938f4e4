package org.locus.cli.cluster;

import java.util.List;
import java.util.Map;

import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.gear.GearPlan;

/**
 * Keys a feature needs that name the cluster's own hosts, so its {@code conf/features} file
 * cannot hold them: filled in by {@code cluster up} unless the user gave them with
 * {@code --conf}. Today one: ndcoupling's gear plan (the first half of the nodes always on).
 */
final class FeatureDefaults {
  private FeatureDefaults() {
  }

  /** Adds the host-dependent keys of {@code features} that {@code keys} lacks. */
  static void fill(List<String> features, Map<String, String> keys, List<String> hosts) {
    if (features.contains("ndcoupling") && !keys.containsKey(NdCouplingConfigKeys.GEAR_PLAN)
        && hosts.size() >= 2) {
      keys.put(NdCouplingConfigKeys.GEAR_PLAN, GearPlan.halves(hosts));
    }
  }
}
