package org.locus.cli.energy;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.energy.HotScratchSpace;

/** {@code locus energy init}: HOT storage policy for scratch space, once per new cluster. */
final class EnergyInitCommand extends OptionsCommand {
  EnergyInitCommand() {
    super("locus energy init");
  }

  @Override
  public String name() {
    return "init";
  }

  @Override
  public String summary() {
    return "keep scratch space (/tmp, MapReduce staging) on primary disks: HOT policy";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(ClientConfiguration.option());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "[--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      HotScratchSpace.apply((DistributedFileSystem) fs, conf);
      for (Path dir : HotScratchSpace.directories(conf)) {
        console.out().println(dir + ": storage policy HOT (every replica on primary disks)");
      }
    }
    return 0;
  }
}
