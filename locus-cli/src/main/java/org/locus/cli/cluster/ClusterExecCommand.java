package org.locus.cli.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;
import org.locus.netns.NodeCgroup;
import org.locus.netns.ResourceLedger;

/**
 * {@code locus cluster exec --dir DIR NODE -- CMD...}: runs a command inside a netns node's
 * namespace and cgroups (so its I/O is throttled and its cache bounded as the node's daemons'
 * are); prints its standard output and error, and exits with its exit code.
 */
public final class ClusterExecCommand extends OptionsCommand {
  public ClusterExecCommand() {
    super("locus cluster exec");
  }

  @Override
  public String name() {
    return "exec";
  }

  @Override
  public String summary() {
    return "run a command inside a netns node (master, node1..nodeN)";
  }

  @Override
  protected Options options() {
    return new Options().addOption(DirectoryOption.option());
  }

  @Override
  protected String usageArguments() {
    return "--dir DIR NODE -- CMD [ARG...]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    ClusterDirectory dir = DirectoryOption.of(line);
    List<String> rest = new ArrayList<>(Arrays.asList(line.getArgs()));
    if (rest.size() < 2) {
      throw new UsageException("expected NODE -- CMD [ARG...]");
    }
    String node = checkNode(dir, rest.remove(0));
    ClusterLayout layout = new ClusterLayout(dir.root());
    DaemonLauncher launcher = new DaemonLauncher(layout,
        NodeCgroup.forHost(layout, new ResourceLedger(layout.ledgerFile())));
    Process process = new ProcessBuilder(launcher.inNode(node, rest)).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.INHERIT).start();
    try (java.io.InputStream in = process.getInputStream()) {
      in.transferTo(console.out());
    }
    console.out().flush();
    return process.waitFor();
  }

  /** @return {@code node} if the netns cluster in dir has it; otherwise a clear error */
  static String checkNode(ClusterDirectory dir, String node) throws Exception {
    if (!NetnsStatus.isNetns(dir)) {
      throw new LocusException("no netns cluster in " + dir.root()
          + "; start one with 'locus cluster up --netns --dir " + dir.root() + "'");
    }
    int nodes = Integer.parseInt(dir.readState().getProperty("nodes", "0"));
    int index = ClusterLayout.index(node);
    if (index < 0 || index > nodes) {
      throw new UsageException("unknown node '" + node + "'; one of master, node1..node"
          + nodes);
    }
    return node;
  }
}
