package org.locus.bench.run;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.locus.ndcoupling.shift.NodeSwitch;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;
import org.locus.netns.DaemonRole;
import org.locus.netns.NodeCgroup;
import org.locus.netns.ResourceLedger;

/**
 * Switches whole coupled nodes of a netns cluster whose partitions have metadata copies: off
 * stops every daemon of the node (SIGTERM, the failover controllers first so that none reacts
 * to its NameNode stopping, the DataNode after the NameNodes, the JournalNode and ZooKeeper
 * server last); on starts them again with their saved command lines, in the order they depend
 * on each other (quorum services, NameNodes, their failover controllers, then the DataNode and
 * the rest). The gear shifter hands the node's partition to its copy before and back after.
 *
 * <p>A plan must keep a majority of the JournalNodes and ZooKeeper servers (node1..node3) on
 * in every gear; the alternating plan of coupled nodes switches off node2 only among them.
 */
public final class NetnsWholeNodeSwitch implements NodeSwitch {
  private static final int STOP_GRACE_SECONDS = 30;
  /** The order daemons stop in; the start runs through it backwards. */
  private static final List<DaemonRole> STOP_ORDER = List.of(DaemonRole.NODEMANAGER,
      DaemonRole.ZKFC, DaemonRole.REPLICA_ZKFC, DaemonRole.NAMENODE, DaemonRole.REPLICA_NAMENODE,
      DaemonRole.DATANODE, DaemonRole.JOURNALNODE, DaemonRole.ZOOKEEPER);

  private final ClusterLayout layout;
  private final DaemonLauncher launcher;

  private NetnsWholeNodeSwitch(ClusterLayout layout) throws IOException {
    this.layout = layout;
    this.launcher = new DaemonLauncher(layout,
        NodeCgroup.forHost(layout, new ResourceLedger(layout.ledgerFile())));
  }

  /**
   * @return the switch of the netns cluster in {@code dir} when its partitions have copies
   *     (node1 runs a replica NameNode), else null
   */
  public static NetnsWholeNodeSwitch of(File dir) throws IOException {
    ClusterLayout layout = new ClusterLayout(dir);
    return layout.daemonArgv("node1", DaemonRole.REPLICA_NAMENODE.word()).isFile()
        ? new NetnsWholeNodeSwitch(layout) : null;
  }

  /** @return the roles {@code node} runs, in stop order */
  private List<DaemonRole> rolesOf(String node) {
    List<DaemonRole> roles = new ArrayList<>();
    for (DaemonRole role : STOP_ORDER) {
      if (layout.daemonArgv(node, role.word()).isFile()) {
        roles.add(role);
      }
    }
    return roles;
  }

  @Override
  public void off(String host) throws IOException {
    String node = NetnsDataNodeSwitch.nodeOf(layout, host);
    for (DaemonRole role : rolesOf(node)) {
      launcher.stop(node, role, STOP_GRACE_SECONDS);
    }
  }

  @Override
  public void on(String host) throws IOException {
    String node = NetnsDataNodeSwitch.nodeOf(layout, host);
    List<DaemonRole> roles = rolesOf(node);
    for (int i = roles.size() - 1; i >= 0; i--) {
      if (launcher.running(node, roles.get(i)).isEmpty()) {
        launcher.restart(node, roles.get(i));
      }
    }
  }
}
