package org.locus.kit;

/**
 * Which loopback address and host name each embedded node gets.
 *
 * <p>Node {@code k} (1-based) lives at {@code 127.0.0.(k+1)}; its DataNode and NodeManager bind
 * there and both call themselves by that address. The whole of 127.0.0.0/8 is loopback on Linux,
 * so no interface or name-service change is needed. 127.0.0.1 is avoided on purpose: it reverse
 * resolves to {@code localhost}, which YARN would then use as the NodeManager's name while HDFS
 * uses the literal address, and locality would silently break for that node.
 *
 * <p>The host name is the address itself. A made-up name (for example {@code node3.locus})
 * would have to resolve in every JVM the cluster starts, including YARN task JVMs, which means
 * a private hosts file passed to each of them; the literal address needs nothing.
 */
public final class NodeAddressPlan {
  /** Largest node count the plan can address without leaving 127.0.0.0/24. */
  public static final int MAX_NODES = 250;

  private NodeAddressPlan() {
  }

  /**
   * @param node 1-based node number
   * @return the loopback address (and host name) of that node
   */
  public static String hostOf(int node) {
    if (node < 1 || node > MAX_NODES) {
      throw new IllegalArgumentException(
          "node number " + node + " is outside 1.." + MAX_NODES);
    }
    return "127.0.0." + (node + 1);
  }
}
