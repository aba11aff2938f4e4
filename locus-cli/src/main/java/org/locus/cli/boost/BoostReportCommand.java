package org.locus.cli.boost;

import java.io.FileNotFoundException;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.report.TextTable;
import org.locus.boost.BlockCopies;
import org.locus.boost.SuperlocalPaths;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;

/** {@code locus boost report PATH}: copies per block, the intra-node mirror included. */
final class BoostReportCommand extends OptionsCommand {
  BoostReportCommand() {
    super("locus boost report");
  }

  @Override
  public String name() {
    return "report";
  }

  @Override
  public String summary() {
    return "copies of every block under PATH, counting a REPLICATED replica as its mirror";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(ClientConfiguration.option());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "PATH [--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    List<String> args = line.getArgList();
    if (args.size() != 1) {
      throw new UsageException("expected one PATH, got " + args.size() + " arguments");
    }
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
      SuperlocalPaths paths = new SuperlocalPaths(dfs, layout);
      List<BlockCopies> blocks;
      boolean tagged;
      int recorded;
      try {
        tagged = paths.isTagged(path);
        recorded = paths.recordedCopies(path);
        blocks = paths.blocks(path);
      } catch (FileNotFoundException e) {
        throw new LocusException(path + ": no such file or directory in " + fs.getUri());
      }
      console.out().printf("%s: %s%s%n", path, tagged ? "SUPERLOCAL" : "not SUPERLOCAL"
          + " (stock placement)", recorded > 0 ? ", " + recorded + " copies requested" : "");
      TextTable table = new TextTable("FILE", "BLOCK", "COPIES", "NODES", "REPLICAS");
      long superlocal = 0;
      for (BlockCopies block : blocks) {
        table.row(block.file().toUri().getPath(), block.index(), block.copies(), block.hosts(),
            block.replicas().stream().map(r -> r.host() + "[" + r.type()
                + (r.copies() > 1 ? " x" + r.copies() : "") + "]")
                .collect(Collectors.joining(" ")));
        superlocal += block.superlocalReplicas() == 1 ? 1 : 0;
      }
      table.print(console.out(), "  ");
      console.out().printf("%d block%s, %d with exactly one %s (REPLICATED) replica%n",
          blocks.size(), blocks.size() == 1 ? "" : "s", superlocal, layout.replicatedType());
    }
    return 0;
  }
}
