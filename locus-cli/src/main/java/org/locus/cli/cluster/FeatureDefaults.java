package org.locus.cli.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.gear.CoupledNodeKeys;
import org.locus.ndcoupling.gear.GearPlan;

/**
 * Keys a feature needs that name the cluster's own hosts, so its {@code conf/features} file
 * cannot hold them: filled in by {@code cluster up} unless the user gave them with
 * {@code --conf}. Today ndcoupling's: the gear plan (the first half of the nodes always on),
 * and on an embedded cluster, whose nodes share the host's ports, a free port for the gear
 * service and one for the batch transfer service, so that clusters started side by side (tests
 * run two JVMs at once) do not fight over the defaults.
 */
final class FeatureDefaults {
  private FeatureDefaults() {
  }

  /**
   * Adds the host-dependent keys of {@code features} that {@code keys} lacks (netns); on coupled
   * nodes ({@code --metadata sdp}) ndcoupling's partition placement and its alternating plan.
   */
  static void fill(List<String> features, Map<String, String> keys, List<String> hosts,
      boolean coupled) {
    if (features.contains("ndcoupling") && coupled) {
      CoupledNodeKeys.add(keys, hosts);
    }
    fill(features, keys, hosts);
  }

  /** Adds the host-dependent keys of {@code features} that {@code keys} lacks. */
  static void fill(List<String> features, Map<String, String> keys, List<String> hosts) {
    if (features.contains("ndcoupling") && !keys.containsKey(NdCouplingConfigKeys.GEAR_PLAN)
        && hosts.size() >= 2) {
      keys.put(NdCouplingConfigKeys.GEAR_PLAN, GearPlan.halves(hosts));
    }
  }

  /** {@link #fill}, plus free ports for an embedded cluster's shared host. */
  static void fillEmbedded(List<String> features, Map<String, String> keys, List<String> hosts)
      throws IOException {
    fill(features, keys, hosts);
    if (features.contains("ndcoupling")) {
      keys.putIfAbsent(NdCouplingConfigKeys.GEAR_RPC_ADDRESS, "127.0.0.1:" + freePort());
      keys.putIfAbsent(NdCouplingConfigKeys.BATCH_TRANSFER_PORT, Integer.toString(freePort()));
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
