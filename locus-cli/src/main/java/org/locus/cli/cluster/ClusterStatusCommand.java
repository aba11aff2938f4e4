package org.locus.cli.cluster;

import java.util.Properties;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.locus.bench.report.TextTable;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.netns.ClusterDirectory;

/**
 * {@code locus cluster status}: whether the cluster in DIR is up, and its nodes.
 * Exit code 0 when up, 3 when down (as service managers report a stopped service).
 */
public final class ClusterStatusCommand extends OptionsCommand {
  /** Exit code for "the cluster is not running". */
  public static final int EXIT_DOWN = 3;

  public ClusterStatusCommand() {
    super("locus cluster status");
  }

  @Override
  public String name() {
    return "status";
  }

  @Override
  public String summary() {
    return "show whether the cluster in DIR is up, and each node's host, address and volumes"
        + " (exit 3 when down)";
  }

  @Override
  protected Options options() {
    return new Options().addOption(DirectoryOption.option());
  }

  @Override
  protected String usageArguments() {
    return "--dir DIR";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    ClusterDirectory dir = DirectoryOption.of(line);
    if (NetnsStatus.isNetns(dir)) {
      if (!dir.isLive()) {
        console.out().println("netns cluster in " + dir.root() + ": supervisor down"
            + (new org.locus.netns.ClusterLayout(dir.root()).ledgerFile().isFile()
                ? "; resources remain, remove them with 'locus cluster down --dir " + dir.root()
                    + "'" : ""));
        return EXIT_DOWN;
      }
      NetnsStatus.print(dir, dir.readState(), console);
      return 0;
    }
    if (!dir.isLive()) {
      console.out().println("cluster in " + dir.root() + ": down");
      return EXIT_DOWN;
    }
    printState(dir, dir.readState(), console);
    return 0;
  }

  static void printState(ClusterDirectory dir, Properties state, Console console) {
    console.out().printf("cluster in %s: %s (pid %s, since %s)%n", dir.root(),
        state.getProperty("state", "unknown"), state.getProperty("pid", "?"),
        state.getProperty("started", "?"));
    console.out().println("  namenode         " + state.getProperty("namenode", "-"));
    console.out().println("  resourcemanager  " + state.getProperty("resourcemanager",
        "- (no YARN)"));
    String features = state.getProperty("features", "");
    console.out().println("  features         " + (features.isEmpty() ? "none (stock Hadoop)"
        : features));
    TextTable table = new TextTable("NODE", "HOST", "ADDRESS", "RACK", "VOLUMES");
    int nodes = Integer.parseInt(state.getProperty("nodes", "0"));
    for (int n = 1; n <= nodes; n++) {
      String host = state.getProperty("node." + n + ".host");
      table.row(n, host, host, state.getProperty("node." + n + ".rack"),
          state.getProperty("node." + n + ".volumes", "").replace(";", " "));
    }
    console.out().println();
    table.print(console.out(), "  ");
  }
}
