package org.locus.cli.gear;

import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.ndcoupling.rpc.GearProtocol;
import org.locus.ndcoupling.rpc.PartitionGearClients;
import org.locus.ndcoupling.shift.GearShifter;
import org.locus.ndcoupling.shift.IndexAdminHandOver;

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
    try (PartitionGearClients clients = GearCommandSupport.connect(conf)) {
      boolean copies = !clients.nameNodes().isEmpty();
      for (Map.Entry<String, GearProtocol> p : GearCommandSupport.activeGears(clients, conf)
          .entrySet()) {
        Map<String, String> status = GearShifter.parse(p.getValue().status());
        String indent = clients.partitioned() ? "  " : "";
        if (clients.partitioned()) {
          console.out().printf("partition %s%n", p.getKey());
        }
        console.out().printf("%sgear %s of 0..%s   plan: %s%n", indent, status.get("gear"),
            status.get("top-gear"), status.get("plan"));
        console.out().printf("%supdate log: %s pending entries, %s bytes (%s)%n", indent,
            status.get("pending-entries"), status.get("log-bytes"), status.get("log"));
        console.out().printf("%slast gear-up: %s%n", indent, status.get("gear-up"));
        if (copies) {
          console.out().printf("%sserved by: NameNode %s, %s (edits up to %s)%n", indent,
              status.get("namenode"), status.get("ha-state"), status.get("txid"));
        }
        for (Map.Entry<String, String> e : status.entrySet()) {
          if (e.getKey().startsWith("node.")) {
            console.out().printf("%s  %-16s %s%n", indent, e.getKey().substring(5),
                e.getValue());
          }
        }
      }
      if (copies && IndexAdminHandOver.configured(conf)) {
        console.out().printf("index nodes with copies (switched with their whole node):%n");
        for (Map.Entry<Integer, String> node : new IndexAdminHandOver(conf, 0).states()
            .entrySet()) {
          console.out().printf("  index node %d at %s%n", node.getKey(), node.getValue());
        }
      }
    }
    return 0;
  }
}
