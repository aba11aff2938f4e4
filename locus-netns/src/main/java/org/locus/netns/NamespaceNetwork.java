package org.locus.netns;

import java.io.IOException;

/**
 * The cluster's network: a namespace holding a bridge, a namespace per node whose {@code eth0}
 * is a veth into that bridge with the node's address, and a veth from the host's root namespace
 * into the bridge so host clients reach every node. Nothing is routed beyond the /24.
 */
public final class NamespaceNetwork {
  private static final String BRIDGE = "br0";

  private final ClusterLayout layout;
  private final ResourceLedger ledger;

  public NamespaceNetwork(ClusterLayout layout, ResourceLedger ledger) {
    this.layout = layout;
    this.ledger = ledger;
  }

  /** Creates the bridge namespace and the host's veth into it. */
  public void createBridge() throws IOException {
    String br = layout.bridgeNamespace();
    addNamespace(br);
    HostCommand.run("ip", "-n", br, "link", "add", BRIDGE, "type", "bridge");
    HostCommand.run("ip", "-n", br, "link", "set", BRIDGE, "up");
    ledger.record("link", layout.hostLink(), null);
    HostCommand.run("ip", "link", "add", layout.hostLink(), "type", "veth", "peer", "name",
        "host", "netns", br);
    HostCommand.run("ip", "-n", br, "link", "set", "host", "master", BRIDGE, "up");
    HostCommand.run("ip", "addr", "add", layout.hostAddress() + "/24", "dev", layout.hostLink());
    HostCommand.run("ip", "link", "set", layout.hostLink(), "up");
  }

  /** Creates a node's namespace, its veth into the bridge, and its address. */
  public void addNode(String node) throws IOException {
    String ns = layout.namespace(node);
    String br = layout.bridgeNamespace();
    addNamespace(ns);
    HostCommand.run("ip", "-n", ns, "link", "set", "lo", "up");
    HostCommand.run("ip", "link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name",
        layout.bridgePort(node), "netns", br);
    HostCommand.run("ip", "-n", br, "link", "set", layout.bridgePort(node), "master", BRIDGE,
        "up");
    HostCommand.run("ip", "-n", ns, "addr", "add", layout.address(node) + "/24", "dev", "eth0");
    HostCommand.run("ip", "-n", ns, "link", "set", "eth0", "up");
  }

  /** @return bytes a node sent and received on its link, from its veth's counters */
  public long[] counters(String node) throws IOException {
    String ns = layout.namespace(node);
    return new long[] {
        Long.parseLong(HostCommand.run("ip", "netns", "exec", ns, "cat",
            "/sys/class/net/eth0/statistics/tx_bytes").trim()),
        Long.parseLong(HostCommand.run("ip", "netns", "exec", ns, "cat",
            "/sys/class/net/eth0/statistics/rx_bytes").trim())};
  }

  /**
   * @return whether this process's / is a mount point, which {@code ip netns exec} needs (it
   *     makes / a slave mount); false in a chroot into a plain directory
   */
  public static boolean rootIsAMountPoint() throws IOException {
    return CgroupMounts.mountPoints().contains("/");
  }

  /** @return whether the host already has an address or route in the cluster's /24 */
  public static boolean subnetInUse(ClusterLayout layout) throws IOException {
    return !HostCommand.run("ip", "-o", "route", "show", "to", "match",
        layout.subnet() + ".0/24").lines()
        .filter(line -> line.startsWith(layout.subnet() + ".")).toList().isEmpty();
  }

  private void addNamespace(String ns) throws IOException {
    ledger.record("netns", ns, null);
    HostCommand.run("ip", "netns", "add", ns);
  }
}
