package org.locus.cli.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.CommandGroup;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;
import org.locus.netns.DaemonRole;
import org.locus.netns.MetadataLayout;
import org.locus.netns.NodeCgroup;
import org.locus.netns.PartitionHaDaemons;
import org.locus.netns.PartitionReplicas;
import org.locus.netns.PartitionedNamespace;
import org.locus.netns.ResourceLedger;

/**
 * {@code locus cluster node stop|start --dir DIR NODE [--role ROLE]}: switches one node's
 * daemons off (SIGTERM, or SIGKILL with {@code --kill}, a crash) and on again with the same
 * command line, in the same namespace and cgroups. Without {@code --role}, every daemon the
 * node runs, in {@link DaemonRole} order.
 *
 * <p>On a coupled cluster whose partitions have copies, the node's partition moved to its
 * replica node while the node was away; {@code start} then waits until the node's own NameNode
 * has caught up as a standby and hands the partition back to it (a graceful failover through
 * the ZKFCs), unless {@code --no-failback}.
 */
public final class ClusterNodeCommand extends OptionsCommand {
  /** How long a returning NameNode may take to start, catch up and take its partition back. */
  private static final long FAILBACK_TIMEOUT_SECONDS = 180;

  private final boolean start;

  private ClusterNodeCommand(boolean start) {
    super("locus cluster node " + (start ? "start" : "stop"));
    this.start = start;
  }

  /** @return the {@code cluster node} group */
  public static CommandGroup group() {
    return new CommandGroup("node", "locus cluster node",
        "stop or start one netns node's daemons",
        List.of(new ClusterNodeCommand(false), new ClusterNodeCommand(true)));
  }

  @Override
  public String name() {
    return start ? "start" : "stop";
  }

  @Override
  public String summary() {
    return start ? "start a node's daemons again" : "stop a node's daemons";
  }

  @Override
  protected Options options() {
    Options options = new Options().addOption(DirectoryOption.option());
    options.addOption(Option.builder().longOpt("role").hasArg().argName("ROLE")
        .desc("only this daemon: datanode, nodemanager (workers); namenode, resourcemanager,"
            + " historyserver (master); namenode on workers with --metadata sdp, and with"
            + " metadata copies zookeeper, journalnode, replica-namenode, zkfc, replica-zkfc")
        .build());
    if (!start) {
      options.addOption(Option.builder().longOpt("kill").desc("SIGKILL, as a crash").build());
    } else {
      options.addOption(Option.builder().longOpt("no-failback").desc("leave the node's"
          + " partition on its replica node (coupled clusters with metadata copies)").build());
    }
    return options;
  }

  @Override
  protected String usageArguments() {
    return "--dir DIR NODE [--role ROLE]" + (start ? " [--no-failback]" : " [--kill]");
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    ClusterDirectory dir = DirectoryOption.of(line);
    if (line.getArgs().length != 1) {
      throw new UsageException("expected one NODE (master, node1..nodeN)");
    }
    String node = ClusterExecCommand.checkNode(dir, line.getArgs()[0]);
    ClusterLayout layout = new ClusterLayout(dir.root());
    DaemonLauncher launcher = new DaemonLauncher(layout,
        NodeCgroup.forHost(layout, new ResourceLedger(layout.ledgerFile())));
    List<DaemonRole> roles = new ArrayList<>();
    if (line.hasOption("role")) {
      try {
        roles.add(DaemonRole.of(line.getOptionValue("role")));
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    } else {
      for (DaemonRole role : DaemonRole.values()) {
        if (layout.daemonArgv(node, role.word()).isFile()) {
          roles.add(role);
        }
      }
    }
    for (DaemonRole role : roles) {
      if (!layout.daemonArgv(node, role.word()).isFile()) {
        throw new UsageException(node + " runs no " + role.word());
      }
    }
    if (!start && line.hasOption("kill")) {
      crash(launcher, node, roles, console);
      return 0;
    }
    for (DaemonRole role : roles) {
      if (start) {
        if (launcher.running(node, role).isPresent()) {
          console.out().printf("%s %s: already running%n", node, role.word());
        } else {
          console.out().printf("%s %s: started (pid %d)%n", node, role.word(),
              launcher.restart(node, role));
        }
      } else {
        boolean stopped = launcher.stop(node, role, 30);
        console.out().printf("%s %s: %s%n", node, role.word(), stopped ? "stopped"
            : "was not running");
      }
    }
    if (start && !line.hasOption("no-failback")
        && (roles.contains(DaemonRole.NAMENODE) || roles.contains(DaemonRole.ZKFC))) {
      handBack(dir, layout, launcher, node, console);
    }
    return 0;
  }

  /**
   * Kills the given daemons of a node at the same instant, as a crash of the node would: one at
   * a time, a daemon that outlives another would see it die (a ZKFC would hand its NameNode's
   * partition over gracefully before being killed itself).
   */
  private static void crash(DaemonLauncher launcher, String node, List<DaemonRole> roles,
      Console console) throws Exception {
    Map<DaemonRole, ProcessHandle> running = new LinkedHashMap<>();
    for (DaemonRole role : roles) {
      launcher.running(node, role).ifPresent(process -> running.put(role, process));
    }
    running.values().forEach(ProcessHandle::destroyForcibly);
    for (DaemonRole role : roles) {
      ProcessHandle process = running.get(role);
      if (process == null) {
        console.out().printf("%s %s: was not running%n", node, role.word());
        continue;
      }
      try {
        process.onExit().get(30, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new LocusException(role.word() + " on " + node + " (pid " + process.pid()
            + ") did not exit within 30 s of SIGKILL");
      }
      console.out().printf("%s %s: killed%n", node, role.word());
    }
  }

  /** Gives a coupled node's partition back to it once its NameNode and ZKFC run again. */
  private static void handBack(ClusterDirectory dir, ClusterLayout layout,
      DaemonLauncher launcher, String node, Console console) throws Exception {
    Properties state = dir.readState();
    int nodes = Integer.parseInt(state.getProperty("nodes", "0"));
    MetadataLayout metadata = MetadataLayout.of("metadata in " + layout.stateFile(),
        state.getProperty("metadata", MetadataLayout.MASTER.word()));
    if (!PartitionReplicas.enabled(metadata, nodes) || ClusterLayout.index(node) < 1
        || launcher.running(node, DaemonRole.NAMENODE).isEmpty()
        || launcher.running(node, DaemonRole.ZKFC).isEmpty()) {
      return;
    }
    String ns = PartitionedNamespace.nameservice(node);
    long begin = System.nanoTime();
    boolean moved = PartitionHaDaemons.handBack(layout, nodes, ns,
        ClientConfiguration.load(dir.root().getPath()), FAILBACK_TIMEOUT_SECONDS);
    console.out().printf("%s: %s%n", ns, moved ? "handed back to " + node + " in "
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) + " ms"
        : "already served by " + node);
    if (launcher.running(node, DaemonRole.REPLICA_NAMENODE).isPresent()) {
      String copy = new PartitionReplicas(layout, nodes).replicaOf(node);
      begin = System.nanoTime();
      String reached = PartitionHaDaemons.awaitCopy(layout, nodes, copy, node,
          FAILBACK_TIMEOUT_SECONDS);
      console.out().printf("%s: copy on %s %s in %d ms%n", copy, node, reached,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
    }
  }
}
