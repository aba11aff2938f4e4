package org.locus.cli.mount;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Command;
import org.locus.cli.command.CommandGroup;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.ndcoupling.client.MountTable;
import org.locus.ndcoupling.client.MountTableAdmin;

/**
 * {@code locus mount}: the coupled namespace's mount table (static directory partitioning,
 * seed 004 §4.2.1): which partition owns each subtree. Changes are published to every
 * partition; clients created afterwards use them, no daemon restarts.
 */
public final class MountCommands {
  private MountCommands() {
  }

  public static Command group() {
    return new CommandGroup("mount", "locus mount",
        "the coupled namespace's mount table: which partition owns each directory subtree",
        List.of(new ListCommand(), new AddCommand(), new RemoveCommand()));
  }

  /** Prints the table in force and the version each partition stores. */
  static void print(MountTableAdmin admin, MountTable table, Console console) throws Exception {
    console.out().printf("mount table version %d%s%n", table.version(),
        table.version() == 0 ? " (the default; none stored yet)" : "");
    for (Map.Entry<String, String> mount : table.mounts().entrySet()) {
      console.out().printf("  %-32s %s%n", mount.getKey(), mount.getValue());
    }
    StringBuilder stored = new StringBuilder("stored:");
    for (Map.Entry<String, Optional<Integer>> p : admin.storedVersions().entrySet()) {
      stored.append(' ').append(p.getKey()).append('=')
          .append(p.getValue().map(String::valueOf).orElse("none"));
    }
    console.out().println(stored);
  }

  private abstract static class MountCommand extends OptionsCommand {
    private final String name;
    private final String summary;
    private final String arguments;
    private final int argumentCount;

    MountCommand(String name, String summary, String arguments, int argumentCount) {
      super("locus mount " + name);
      this.name = name;
      this.summary = summary;
      this.arguments = arguments;
      this.argumentCount = argumentCount;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String summary() {
      return summary;
    }

    @Override
    protected Options options() {
      Options options = new Options().addOption(ClientConfiguration.option());
      if (argumentCount > 0) {
        options.addOption(Option.builder().longOpt("force").desc("change the table even if"
            + " files under the path stay behind on the partition that owned it").build());
      }
      return options;
    }

    @Override
    protected String usageArguments() {
      return (arguments.isEmpty() ? "" : arguments + " ") + "[--conf DIR]"
          + (argumentCount > 0 ? " [--force]" : "");
    }

    @Override
    protected int execute(CommandLine line, Console console) throws Exception {
      if (line.getArgList().size() != argumentCount) {
        throw new UsageException("mount " + name + " takes " + (argumentCount == 0
            ? "no arguments" : arguments));
      }
      Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
      try (MountTableAdmin admin = new MountTableAdmin(conf)) {
        MountTable table;
        try {
          table = change(admin, line.getArgList(), line.hasOption("force"));
        } catch (IllegalArgumentException e) {
          throw new LocusException(e.getMessage(), e);
        }
        print(admin, table, console);
      }
      return 0;
    }

    abstract MountTable change(MountTableAdmin admin, List<String> args, boolean force)
        throws Exception;
  }

  private static final class ListCommand extends MountCommand {
    ListCommand() {
      super("list", "the mount points, their partitions and each partition's stored version",
          "", 0);
    }

    @Override
    MountTable change(MountTableAdmin admin, List<String> args, boolean force)
        throws Exception {
      return admin.current();
    }
  }

  private static final class AddCommand extends MountCommand {
    AddCommand() {
      super("add", "mount a directory subtree on a partition (or move /)", "PATH PARTITION", 2);
    }

    @Override
    MountTable change(MountTableAdmin admin, List<String> args, boolean force)
        throws Exception {
      return admin.add(args.get(0), args.get(1), force);
    }
  }

  private static final class RemoveCommand extends MountCommand {
    RemoveCommand() {
      super("remove", "remove a mount point; its subtree goes back to /'s partition", "PATH",
          1);
    }

    @Override
    MountTable change(MountTableAdmin admin, List<String> args, boolean force)
        throws Exception {
      return admin.remove(args.get(0), force);
    }
  }
}
