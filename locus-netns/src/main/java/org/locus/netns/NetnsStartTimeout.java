package org.locus.netns;

/**
 * How long a netns cluster may take to come up. Every node starts its daemons' JVMs inside its
 * own CPU cap, so a node capped below a quarter core takes longer in proportion: an 8-node
 * {@code --metadata fatbtree} cluster at 0.125 core per node (seven JVMs per node, with HA
 * election) was still starting after the 300 s that suffice at a quarter core.
 */
public final class NetnsStartTimeout {
  /** The wait of a node with a quarter core or more, or with no cap: every cluster's default. */
  static final long BASE_SECONDS = SupervisorProcess.START_TIMEOUT_SECONDS;
  /** The cap at and above which {@link #BASE_SECONDS} suffices. */
  static final double BASE_CORES = 0.25;

  private NetnsStartTimeout() {
  }

  /** @return seconds the cluster of {@code spec} may take to come up */
  public static long seconds(NetnsClusterSpec spec) {
    return seconds(spec.nodeCpus());
  }

  static long seconds(double nodeCpus) {
    if (nodeCpus <= 0 || nodeCpus >= BASE_CORES) {
      return BASE_SECONDS;
    }
    return (long) Math.ceil(BASE_SECONDS * BASE_CORES / nodeCpus);
  }
}
