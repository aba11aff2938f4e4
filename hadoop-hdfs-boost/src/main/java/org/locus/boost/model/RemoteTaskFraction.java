package org.locus.boost.model;

/**
 * The closed form of the remote-map-task fraction (RMTF, ρ) of seed 001 §4.3.1 and Appendix A.
 *
 * <p>Appendix A assumes unit-time map tasks and a static, perfect load balance: each of n servers
 * runs exactly k tasks. For r = 1 the number of blocks a server holds is Binomial(kn, 1/n), about
 * normal with variance k; a server holding fewer than k blocks must run the difference remotely,
 * so the expected remote fraction is E[max(0, k − X)] / k = sqrt(k / 2π) / k = 1/sqrt(2πk)
 * (Eq. 4.1). For r &gt; 1 the appendix replaces k by rk (the server holds about rk replicas, with
 * variance rk) and divides the shortfall by r, "a given replica has probability 1/r of being the
 * one served" (Eq. A.1), which gives 1/sqrt(2πrk) (Eq. 4.2). Whether that step describes a
 * scheduler that prefers local work is what {@link MapTaskAssignment} checks: see docs/boost.md.
 */
public final class RemoteTaskFraction {
  private RemoteTaskFraction() {
  }

  /**
   * @param k blocks (map tasks) per server, &gt; 0
   * @param r copies of each block on distinct servers, &ge; 1
   * @return ρ = 1/sqrt(2πrk), seed 001 Eq. 4.2
   */
  public static double closedForm(double k, int r) {
    if (!(k > 0)) {
      throw new IllegalArgumentException("k (blocks per server) must be > 0, got " + k);
    }
    if (r < 1) {
      throw new IllegalArgumentException("r (copies per block) must be >= 1, got " + r);
    }
    return 1.0 / Math.sqrt(2 * Math.PI * r * k);
  }
}
