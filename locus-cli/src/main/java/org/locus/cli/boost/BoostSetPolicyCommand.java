package org.locus.cli.boost;

import java.io.FileNotFoundException;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.boost.SuperlocalPaths;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;

/** {@code locus boost set-policy PATH}: tags a path SUPERLOCAL with R copies in all. */
final class BoostSetPolicyCommand extends OptionsCommand {
  BoostSetPolicyCommand() {
    super("locus boost set-policy");
  }

  @Override
  public String name() {
    return "set-policy";
  }

  @Override
  public String summary() {
    return "tag PATH SUPERLOCAL: one replica on REPLICATED storage, replication R-1";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("copies").hasArg().argName("R")
        .desc("copies in all, the intra-node mirror included (default 3)").build());
    options.addOption(ClientConfiguration.option());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "PATH [--copies R] [--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    List<String> args = line.getArgList();
    if (args.size() != 1) {
      throw new UsageException("expected one PATH, got " + args.size() + " arguments");
    }
    int copies = intOption(line, "copies", 3, 2, 32);
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    SuperlocalLayout layout;
    try {
      layout = SuperlocalLayout.from(conf);
    } catch (IllegalArgumentException e) {
      throw new LocusException(e.getMessage());
    }
    Path path = new Path(args.get(0));
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      if (!(fs instanceof DistributedFileSystem dfs)) {
        throw new LocusException("fs.defaultFS " + fs.getUri() + " is not HDFS");
      }
      List<Path> files;
      try {
        files = new SuperlocalPaths(dfs, layout).tag(path, copies);
      } catch (FileNotFoundException e) {
        throw new LocusException(path + ": no such file or directory in " + fs.getUri());
      }
      console.out().printf("%s: SUPERLOCAL (storage policy %s), %d copies = HDFS replication %d"
          + " with one replica on %s storage (%d copies)%n", path, layout.tagPolicyName(),
          copies, layout.replicationFor(copies), layout.replicatedType(),
          layout.replicatedCopies());
      console.out().printf("  replication set on %d existing file%s; new blocks get the layout,"
          + " existing blocks keep where they are (rewrite them to move them)%n", files.size(),
          files.size() == 1 ? "" : "s");
    }
    return 0;
  }
}
