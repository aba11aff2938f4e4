package org.locus.bench.run;

import java.io.File;
import java.io.IOException;

import org.locus.ndcoupling.shift.NodeSwitch;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;
import org.locus.netns.DaemonRole;
import org.locus.netns.NodeCgroup;
import org.locus.netns.ResourceLedger;

/**
 * Switches a netns cluster's DataNodes for a gear shift: the node's DataNode process is stopped
 * (SIGTERM) and started again with its saved command line, as {@code cluster node stop|start
 * NODE --role datanode} does. Hosts are the nodes' addresses, as the NameNode knows them.
 * Used by {@code locus gear} on a netns cluster and by the gear bench.
 */
public final class NetnsDataNodeSwitch implements NodeSwitch {
  private static final int STOP_GRACE_SECONDS = 30;
  private final ClusterLayout layout;
  private final DaemonLauncher launcher;

  private NetnsDataNodeSwitch(ClusterLayout layout) throws IOException {
    this.layout = layout;
    this.launcher = new DaemonLauncher(layout,
        NodeCgroup.forHost(layout, new ResourceLedger(layout.ledgerFile())));
  }

  /** @return the switch of the netns cluster in {@code dir}, or null when it is not one */
  public static NetnsDataNodeSwitch of(File dir) throws IOException {
    ClusterLayout layout = new ClusterLayout(dir);
    return layout.daemonArgv("node1", DaemonRole.DATANODE.word()).isFile()
        ? new NetnsDataNodeSwitch(layout) : null;
  }

  private String nodeOf(String host) throws IOException {
    return nodeOf(layout, host);
  }

  /** @return the node of the netns cluster in {@code layout} whose address is {@code host} */
  static String nodeOf(ClusterLayout layout, String host) throws IOException {
    for (String node : ClusterLayout.workers(ClusterLayout.MAX_NODES)) {
      if (!layout.daemonArgv(node, DaemonRole.DATANODE.word()).isFile()) {
        break;
      }
      if (layout.address(node).equals(host)) {
        return node;
      }
    }
    throw new IOException(host + " is not the address of a DataNode of the netns cluster in "
        + layout.root());
  }

  @Override
  public void off(String host) throws IOException {
    launcher.stop(nodeOf(host), DaemonRole.DATANODE, STOP_GRACE_SECONDS);
  }

  @Override
  public void on(String host) throws IOException {
    String node = nodeOf(host);
    if (launcher.running(node, DaemonRole.DATANODE).isEmpty()) {
      launcher.restart(node, DaemonRole.DATANODE);
    }
  }
}
