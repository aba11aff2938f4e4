package org.locus.netns;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Names and places of one netns cluster, all derived from its directory so that {@code up},
 * {@code status}, {@code exec} and {@code down} (possibly after a crash) agree without asking
 * the cluster:
 *
 * <pre>
 *   namespaces   locus-ID-br (the bridge), locus-ID-master, locus-ID-node1 .. -nodeN
 *   addresses    10.77.S.1 the host's veth, 10.77.S.2 master, 10.77.S.(2+k) node k  (/24)
 *   DIR/conf/               client configuration for host tools
 *   DIR/hadoop/             the stock installation: lib/ (Hadoop 3.5.0 jars), webapps
 *   DIR/dist/               the `locus dist` bundle the daemons load Locus code from
 *   DIR/nodes/NODE/         conf/, hosts, logs/, tmp/, mnt/DISK (loop-device mounts)
 *   DIR/disks/NODE-DISK.img disk images behind the loop devices
 *   DIR/daemons/NODE-ROLE.{argv,pid}
 *   DIR/netns.resources     the {@link ResourceLedger}
 * </pre>
 *
 * ID is four hex digits of the directory's path and S (1..250) follows from it, so two
 * clusters in different directories have different names and, but for a clash of S that
 * {@code up} refuses, different subnets: a test cluster and a benchmark cluster can run side by
 * side.
 */
public final class ClusterLayout {
  /** The private /16 whose /24s clusters use, only inside their namespaces and host veth. */
  public static final String NETWORK = "10.77";
  /** Nodes an address plan can hold (2 + N <= 254); memory limits it sooner. */
  public static final int MAX_NODES = 64;
  public static final String MASTER = "master";

  private final File root;
  private final String id;
  private final String subnet;

  public ClusterLayout(File root) {
    this.root = root.getAbsoluteFile();
    int hash = this.root.getPath().hashCode() & 0xffff;
    this.id = String.format(Locale.ROOT, "%04x", hash);
    this.subnet = NETWORK + "." + (1 + hash % 250);
  }

  /** @return the first three octets of this cluster's /24, e.g. {@code 10.77.41} */
  public String subnet() {
    return subnet;
  }

  public File root() {
    return root;
  }

  public String id() {
    return id;
  }

  /** @return {@code node1} .. {@code nodeN} */
  public static List<String> workers(int nodes) {
    List<String> names = new ArrayList<>();
    for (int k = 1; k <= nodes; k++) {
      names.add("node" + k);
    }
    return names;
  }

  /** @return 0 for master, k for node k; -1 for anything else */
  public static int index(String node) {
    if (node.equals(MASTER)) {
      return 0;
    }
    if (node.matches("node[1-9][0-9]*")) {
      return Integer.parseInt(node.substring(4));
    }
    return -1;
  }

  public String namespace(String node) {
    return "locus-" + id + "-" + node;
  }

  public String bridgeNamespace() {
    return "locus-" + id + "-br";
  }

  public String address(String node) {
    return subnet + "." + (2 + index(node));
  }

  public String hostAddress() {
    return subnet + ".1";
  }

  /** @return the host end of the veth into the bridge (root namespace) */
  public String hostLink() {
    return "lc" + id + "host";
  }

  /** @return a node's bridge port, in the bridge namespace */
  public String bridgePort(String node) {
    return "p-" + node;
  }

  public File clientConfDir() {
    return new File(root, "conf");
  }

  public File hadoopHome() {
    return new File(root, "hadoop");
  }

  public File distDir() {
    return new File(root, "dist");
  }

  public File nodeDir(String node) {
    return new File(root, "nodes/" + node);
  }

  public File nodeConfDir(String node) {
    return new File(nodeDir(node), "conf");
  }

  public File mountPoint(String node, String disk) {
    return new File(nodeDir(node), "mnt/" + disk);
  }

  public File diskImage(String node, String disk) {
    return new File(root, "disks/" + node + "-" + disk + ".img");
  }

  public File daemonArgv(String node, String role) {
    return new File(root, "daemons/" + node + "-" + role + ".argv");
  }

  public File daemonPid(String node, String role) {
    return new File(root, "daemons/" + node + "-" + role + ".pid");
  }

  public File daemonLog(String node, String role) {
    return new File(nodeDir(node), "logs/" + role + ".out");
  }

  public File ledgerFile() {
    return new File(root, "netns.resources");
  }

  /** @return the state file {@code status} reads: spec, addresses, throttles */
  public File stateFile() {
    return new File(root, "netns.state");
  }
}
