package org.locus.cli.cluster;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Properties;

import org.locus.bench.report.TextTable;
import org.locus.cli.command.Console;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;
import org.locus.netns.DaemonRole;
import org.locus.netns.DiskModel;
import org.locus.netns.MetadataLayout;
import org.locus.netns.NamespaceNetwork;
import org.locus.netns.NodeCgroup;
import org.locus.netns.PartitionHaDaemons;
import org.locus.netns.PartitionReplicas;
import org.locus.netns.PartitionedNamespace;
import org.locus.netns.ResourceLedger;

/** Prints a netns cluster's nodes, addresses, daemon pids, link and disk limits, counters. */
final class NetnsStatus {
  private NetnsStatus() {
  }

  /** @return whether {@code dir} holds (or held) a netns cluster */
  static boolean isNetns(ClusterDirectory dir) throws IOException {
    return "netns".equals(dir.readState().getProperty("kind"))
        || new ClusterLayout(dir.root()).ledgerFile().isFile();
  }

  static void print(ClusterDirectory dir, Properties state, Console console) throws IOException {
    ClusterLayout layout = new ClusterLayout(dir.root());
    console.out().printf("netns cluster in %s: %s (supervisor pid %s, since %s)%n", dir.root(),
        state.getProperty("state", "unknown"), state.getProperty("pid", "?"),
        state.getProperty("started", "?"));
    console.out().println("  namenode         " + state.getProperty("namenode", "-"));
    console.out().println("  resourcemanager  " + state.getProperty("resourcemanager",
        "- (no YARN)"));
    console.out().println("  link             " + state.getProperty("link", "?")
        + " each way per node");
    console.out().println("  disks            read " + state.getProperty("diskRead", "?")
        + ", write " + state.getProperty("diskWrite", "?") + " per device; node memory "
        + state.getProperty("nodeMemory", "?") + " (memory cgroup, page cache included)");
    console.out().println("  disk model       " + state.getProperty("diskModel",
        DiskModel.NONE.label()));
    console.out().println("  node CPUs        " + state.getProperty("nodeCpus", "none")
        + " (CPU cgroup quota per node; none: the host's cores, shared)");
    NamespaceNetwork network = new NamespaceNetwork(layout,
        new ResourceLedger(layout.ledgerFile()));
    DaemonLauncher launcher = new DaemonLauncher(layout,
        NodeCgroup.forHost(layout, new ResourceLedger(layout.ledgerFile())));
    TextTable table = new TextTable("NODE", "ADDRESS", "DAEMONS (PID)", "TX BYTES", "RX BYTES",
        "DISKS (MAJ:MIN)", "PARTITION", "ROLE");
    boolean coupled = MetadataLayout.of("metadata in " + layout.stateFile(),
        state.getProperty("metadata", MetadataLayout.MASTER.word())).coupled();
    int nodes = Integer.parseInt(state.getProperty("nodes", "0"));
    PartitionReplicas replicas = coupled && PartitionReplicas.enabled(MetadataLayout.SDP, nodes)
        ? new PartitionReplicas(layout, nodes) : null;
    List<String> all = new java.util.ArrayList<>(List.of(ClusterLayout.MASTER));
    all.addAll(ClusterLayout.workers(nodes));
    for (String node : all) {
      StringBuilder daemons = new StringBuilder();
      for (DaemonRole role : DaemonRole.values()) {
        if (layout.daemonArgv(node, role.word()).isFile()) {
          daemons.append(daemons.length() == 0 ? "" : " ").append(role.word()).append('(')
              .append(launcher.running(node, role).map(p -> Long.toString(p.pid()))
                  .orElse("stopped")).append(')');
        }
      }
      String tx = "-";
      String rx = "-";
      if (new File("/run/netns/" + layout.namespace(node)).exists()) {
        long[] counters = network.counters(node);
        tx = Long.toString(counters[0]);
        rx = Long.toString(counters[1]);
      }
      table.row(node, layout.address(node), daemons.toString(), tx, rx,
          state.getProperty(node + ".disks", "-"), partition(node, coupled, state),
          replicas == null || node.equals(ClusterLayout.MASTER) ? role(node, coupled)
              : nameNodeRoles(node, replicas));
    }
    console.out().println();
    table.print(console.out(), "  ");
  }

  /** @return the part of the namespace whose metadata {@code node} holds */
  private static String partition(String node, boolean coupled, Properties state) {
    if (coupled) {
      return state.getProperty(node + ".partition", "-");
    }
    return node.equals(ClusterLayout.MASTER) ? "/ (all)" : "-";
  }

  /**
   * @return the HA state of each NameNode on a node whose partition has a copy: its own
   *     partition's first, then the partition it holds the copy of, e.g.
   *     {@code ns2:active ns1:standby}; {@code down} where the NameNode does not answer
   */
  private static String nameNodeRoles(String node, PartitionReplicas replicas) {
    String own = PartitionedNamespace.nameservice(node);
    String copy = replicas.replicaOf(node);
    return own + ":" + PartitionHaDaemons.nameNodeState(replicas.httpAddress(own, node)) + " "
        + copy + ":" + PartitionHaDaemons.nameNodeState(replicas.httpAddress(copy, node));
  }

  /**
   * @return what {@code node} is: the master (one NameNode for all, or only YARN when the
   *     nodes are coupled), a worker (data only) or a coupled node (its partition's NameNode
   *     and a DataNode of every partition)
   */
  private static String role(String node, boolean coupled) {
    if (node.equals(ClusterLayout.MASTER)) {
      return coupled ? "master (no NameNode)" : "master";
    }
    return coupled ? "coupled" : "worker";
  }
}
