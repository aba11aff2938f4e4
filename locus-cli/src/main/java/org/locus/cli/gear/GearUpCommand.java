package org.locus.cli.gear;

import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.ndcoupling.rpc.PartitionGearClients;
import org.locus.ndcoupling.shift.GearShifter;

/**
 * {@code locus gear up}: shifts up one gear (or to {@code --to LEVEL}) with the chosen command
 * issuance and block transfer, and prints each of the seed's four steps with its time.
 */
final class GearUpCommand extends OptionsCommand {
  GearUpCommand() {
    super("locus gear up");
  }

  @Override
  public String name() {
    return "up";
  }

  @Override
  public String summary() {
    return "shift up and reflect the low-gear writes in four steps (metadata, issue, transfer,"
        + " reflect), printing each step's time";
  }

  @Override
  protected Options options() {
    return new Options().addOption(ClientConfiguration.option())
        .addOption(Option.builder().longOpt("to").hasArg().argName("LEVEL")
            .desc("the gear to shift to (default: one above the current)").build())
        .addOption(GearCommandSupport.issueOption())
        .addOption(GearCommandSupport.transferOption());
  }

  @Override
  protected String usageArguments() {
    return "[--to LEVEL] [--issue METHOD] [--transfer METHOD] [--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.getArgList().isEmpty()) {
      throw new UsageException("gear up takes no arguments; --to LEVEL names the gear");
    }
    String[] methods = GearCommandSupport.methods(line);
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    int level;
    try (PartitionGearClients clients = GearCommandSupport.connect(conf)) {
      Map<String, String> status = GearShifter.parse(GearCommandSupport.activeGears(clients,
          conf).values().iterator().next().status());
      int current = Integer.parseInt(status.get("gear"));
      int top = Integer.parseInt(status.get("top-gear"));
      level = line.hasOption("to") ? intOption(line, "to", current + 1, 0, top) : current + 1;
      if (level <= current) {
        throw new UsageException("gear " + level + " is not above the current gear " + current
            + (current == top ? " (the top gear)" : ""));
      }
    }
    return GearCommandSupport.shift(conf, line.getOptionValue("conf"), level, methods, console);
  }
}
