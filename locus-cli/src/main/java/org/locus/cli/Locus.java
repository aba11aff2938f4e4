package org.locus.cli;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.locus.cli.bench.BenchCommands;
import org.locus.cli.boost.BoostCommands;
import org.locus.cli.cluster.ClusterDownCommand;
import org.locus.cli.cluster.ClusterExecCommand;
import org.locus.cli.cluster.ClusterNodeCommand;
import org.locus.cli.cluster.ClusterStatusCommand;
import org.locus.cli.cluster.ClusterUpCommand;
import org.locus.cli.command.Command;
import org.locus.cli.command.CommandGroup;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.UsageException;
import org.locus.cli.demo.DemoCommand;
import org.locus.cli.dist.DistCommand;
import org.locus.cli.energy.EnergyCommands;
import org.locus.cli.gear.GearCommands;
import org.locus.cli.hadoop.FsCommand;
import org.locus.cli.hadoop.FsckCommand;
import org.locus.cli.hybrid.HybridCommands;
import org.locus.cli.job.GenerateCommand;
import org.locus.cli.job.JobCommands;
import org.locus.cli.kat.KatCommands;
import org.locus.cli.lowpower.AmdahlCommand;
import org.locus.cli.mount.MountCommands;

/**
 * The {@code locus} launcher. Exit codes: 0 success, 1 the action failed, 2 the command line is
 * wrong, 3 {@code cluster status} found the cluster down.
 */
public final class Locus {
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;

  private final Map<String, Command> commands = new LinkedHashMap<>();

  public Locus() {
    for (Command command : List.of(
        new CommandGroup("cluster", "locus cluster",
            "start, inspect and stop an embedded multi-host cluster",
            List.of(new ClusterUpCommand(), new ClusterStatusCommand(),
                new ClusterDownCommand(), new ClusterExecCommand(),
                ClusterNodeCommand.group())),
        new FsCommand(),
        new FsckCommand(),
        JobCommands.group(),
        KatCommands.group(),
        BenchCommands.group(),
        EnergyCommands.group(),
        BoostCommands.group(),
        GearCommands.group(),
        MountCommands.group(),
        HybridCommands.group(),
        new AmdahlCommand(),
        new DemoCommand(),
        new GenerateCommand(),
        new DistCommand())) {
      commands.put(command.name(), command);
    }
  }

  public static void main(String[] args) {
    System.exit(new Locus().run(args, Console.system()));
  }

  /** Runs one command line and returns its exit code; never throws. */
  public int run(String[] args, Console console) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")
        || args[0].equals("help")) {
      printHelp(console);
      return args.length == 0 ? EXIT_USAGE : 0;
    }
    Command command = commands.get(args[0]);
    String path = "locus " + args[0]
        + (command instanceof CommandGroup && args.length > 1 && !args[1].startsWith("-")
            ? " " + args[1] : "");
    try {
      if (command == null) {
        throw new UsageException("unknown command '" + args[0] + "'; one of: "
            + String.join(", ", commands.keySet()));
      }
      return command.run(Arrays.copyOfRange(args, 1, args.length), console);
    } catch (UsageException e) {
      console.err().println(path + ": " + e.getMessage());
      console.err().println("Try '" + (command == null ? "locus" : path) + " --help'.");
      return EXIT_USAGE;
    } catch (LocusException e) {
      console.err().println(path + ": " + e.getMessage());
      return EXIT_FAILED;
    } catch (Exception e) {
      console.err().println(path + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
      return EXIT_FAILED;
    }
  }

  private void printHelp(Console console) {
    console.out().println("usage: locus <command> [options]");
    console.out().println();
    console.out().println("Locus: data placement extensions for Apache Hadoop 3.5.0.");
    console.out().println();
    console.out().println("Commands:");
    for (Command command : commands.values()) {
      console.out().printf("  %-8s %s%n", command.name(), command.summary());
    }
    console.out().println();
    console.out().println("Run 'locus <command> --help' for a command's options.");
  }
}
