package org.locus.cli.gear;

import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.locus.cli.ClientConfiguration;
import org.locus.cli.Console;
import org.locus.cli.OptionsCommand;
import org.locus.cli.UsageException;
import org.locus.ndcoupling.rpc.GearClient;
import org.locus.ndcoupling.shift.GearShifter;

/** {@code locus gear status}: the plan, the gear, the update log and every node's state. */
final class GearStatusCommand extends OptionsCommand {
  GearStatusCommand() {
    super("locus gear status");
  }

  @Override
  public String name() {
    return "status";
  }

  @Override
  public String summary() {
    return "the gear plan, the current gear, pending update-log entries and each node's state";
  }

  @Override
  protected Options options() {
    return new Options().addOption(ClientConfiguration.option());
  }

  @Override
  protected String usageArguments() {
    return "[--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.getArgList().isEmpty()) {
      throw new UsageException("gear status takes no arguments");
    }
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    try (GearClient client = GearCommandSupport.connect(conf)) {
      Map<String, String> status = GearShifter.parse(client.gears().status());
      console.out().printf("gear %s of 0..%s   plan: %s%n", status.get("gear"),
          status.get("top-gear"), status.get("plan"));
      console.out().printf("update log: %s pending entries, %s bytes (%s)%n",
          status.get("pending-entries"), status.get("log-bytes"), status.get("log"));
      console.out().printf("last gear-up: %s%n", status.get("gear-up"));
      for (Map.Entry<String, String> e : status.entrySet()) {
        if (e.getKey().startsWith("node.")) {
          console.out().printf("  %-16s %s%n", e.getKey().substring(5), e.getValue());
        }
      }
    }
    return 0;
  }
}
