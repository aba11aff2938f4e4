package org.apache.hadoop.net;

/** Test access to the network topology's random source, so two policies can be replayed. */
public final class TopologyRandomness {
  private TopologyRandomness() {
  }

  public static void seed(NetworkTopology topology, long seed) {
    topology.setRandomSeed(seed);
  }
}
