package org.locus.netns;

import java.io.IOException;

/**
 * Shapes a node's link both ways with a token bucket ({@code tbf}; this kernel has no netem):
 * on the node's {@code eth0} (what it sends) and on its bridge port (what it receives). The
 * burst is one 32 kbit bucket, so bursts cannot hide the rate; the latency bound of 400 ms
 * sizes the queue so TCP sees drops only under sustained overload.
 */
public final class LinkShaper {
  private final ClusterLayout layout;

  public LinkShaper(ClusterLayout layout) {
    this.layout = layout;
  }

  /** Limits node's link to {@code bitsPerSecond} each way; 0 leaves it unshaped. */
  public void shape(String node, long bitsPerSecond) throws IOException {
    if (bitsPerSecond == 0) {
      return;
    }
    String rate = Long.toString(bitsPerSecond) + "bit";
    HostCommand.run("ip", "netns", "exec", layout.namespace(node), "tc", "qdisc", "replace",
        "dev", "eth0", "root", "tbf", "rate", rate, "burst", "32kbit", "latency", "400ms");
    HostCommand.run("ip", "netns", "exec", layout.bridgeNamespace(), "tc", "qdisc", "replace",
        "dev", layout.bridgePort(node), "root", "tbf", "rate", rate, "burst", "32kbit",
        "latency", "400ms");
  }
}
