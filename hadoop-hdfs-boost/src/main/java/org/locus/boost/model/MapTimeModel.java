package org.locus.boost.model;

/**
 * Map-phase time relative to an imagined run in which every task is local (seed 001 §4.3.2 and
 * §4.4): local tasks take 1, remote ones {@code sRemote}, superlocal ones 1/{@code sSuperlocal}.
 * All figures are modelled, not measured.
 */
public final class MapTimeModel {
  private MapTimeModel() {
  }

  /** @return ρ·s_remote + (1 − ρ), HDFS with remote fraction ρ (§4.3.2) */
  public static double hdfs(double rho, double sRemote) {
    checkFraction("rho", rho);
    return rho * sRemote + (1 - rho);
  }

  /**
   * Eq. 4.3 with the shares spelled out: (1 − ρ₁)/s_superlocal + (ρ₁ − ρ_nodes) +
   * ρ_nodes·s_remote, where 1 − ρ₁ is the superlocal share and ρ_nodes the remote share with
   * copies on as many nodes as BoostDFS uses.
   *
   * @param superlocalShare share of tasks that run superlocal
   * @param remoteShare share of tasks that run remote
   */
  public static double boost(double superlocalShare, double remoteShare, double sSuperlocal,
      double sRemote) {
    checkFraction("superlocal share", superlocalShare);
    checkFraction("remote share", remoteShare);
    if (superlocalShare + remoteShare > 1 + 1e-12) {
      throw new IllegalArgumentException("superlocal share " + superlocalShare
          + " + remote share " + remoteShare + " exceed 1");
    }
    return superlocalShare / sSuperlocal + (1 - superlocalShare - remoteShare)
        + remoteShare * sRemote;
  }

  /**
   * Eq. 4.4: the capacity overhead of one extra intra-node copy at the same availability,
   * relative to total capacity, 1/(C_headroom · r).
   *
   * @param headroom total capacity as a multiple of the replicated input size, &gt; 0
   * @param copies r, the inter-node copies kept
   */
  public static double capacityOverhead(double headroom, int copies) {
    if (!(headroom > 0) || copies < 1) {
      throw new IllegalArgumentException("headroom must be > 0 and copies >= 1, got "
          + headroom + " and " + copies);
    }
    return 1.0 / (headroom * copies);
  }

  private static void checkFraction(String name, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException(name + " must be in [0, 1], got " + value);
    }
  }
}
