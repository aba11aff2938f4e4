package org.locus.cli.energy;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.energy.datanode.WakeRequests;

/**
 * {@code locus energy wake}: asks the power managers to spin their backup disks up now (before a
 * planned backup read, a rebalance or a decommission). The request is an HDFS file each
 * DataNode polls once a second.
 */
final class EnergyWakeCommand extends OptionsCommand {
  EnergyWakeCommand() {
    super("locus energy wake");
  }

  @Override
  public String name() {
    return "wake";
  }

  @Override
  public String summary() {
    return "spin up the backup disks of one node (--host) or of every node, ahead of need";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(ClientConfiguration.option());
    options.addOption(Option.builder().longOpt("host").hasArg().argName("HOST")
        .desc("the DataNode host whose backups to wake (default: every node)").build());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "[--conf DIR] [--host HOST]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    String host = line.getOptionValue("host", WakeRequests.ALL);
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      Path request = WakeRequests.request(fs, conf, host,
          "requested with locus energy wake");
      console.out().println("wake requested for " + host + " (" + request + "); DataNodes act"
          + " within about a second");
    }
    return 0;
  }
}
