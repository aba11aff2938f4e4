package org.locus.cli.gear;

import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;

/**
 * {@code locus gear set LEVEL}: shifts down (check, maintenance, DataNodes off) or up (DataNodes
 * on, gear-up in four steps) to a gear of the plan.
 */
final class GearSetCommand extends OptionsCommand {
  GearSetCommand() {
    super("locus gear set");
  }

  @Override
  public String name() {
    return "set";
  }

  @Override
  public String summary() {
    return "shift to gear LEVEL: down puts the leaving DataNodes in maintenance and switches"
        + " them off; up switches them on and reflects the low-gear writes";
  }

  @Override
  protected Options options() {
    return new Options().addOption(ClientConfiguration.option())
        .addOption(GearCommandSupport.issueOption())
        .addOption(GearCommandSupport.transferOption());
  }

  @Override
  protected String usageArguments() {
    return "LEVEL [--conf DIR] [--issue METHOD] [--transfer METHOD]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    List<String> args = line.getArgList();
    if (args.size() != 1) {
      throw new UsageException("expected one LEVEL (0 = the lowest gear), got " + args.size()
          + " arguments");
    }
    int level;
    try {
      level = Integer.parseInt(args.get(0));
    } catch (NumberFormatException e) {
      throw new UsageException("LEVEL must be a gear number, got '" + args.get(0) + "'");
    }
    String[] methods = GearCommandSupport.methods(line);
    return GearCommandSupport.shift(ClientConfiguration.load(line.getOptionValue("conf")),
        line.getOptionValue("conf"), level, methods, console);
  }
}
