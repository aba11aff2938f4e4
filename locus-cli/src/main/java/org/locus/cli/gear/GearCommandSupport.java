package org.locus.cli.gear;

import java.io.IOException;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.hadoop.conf.Configuration;
import org.locus.cli.Console;
import org.locus.cli.LocusException;
import org.locus.cli.UsageException;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.gear.CommandIssuance;
import org.locus.ndcoupling.gear.GearUpReport;
import org.locus.ndcoupling.gear.TransferMethod;
import org.locus.ndcoupling.rpc.GearClient;
import org.locus.ndcoupling.shift.GearShifter;

/** What the gear commands share: connecting, the method options, running a shift. */
final class GearCommandSupport {
  private GearCommandSupport() {
  }

  static GearClient connect(Configuration conf) throws LocusException {
    try {
      return GearClient.connect(conf);
    } catch (IOException e) {
      throw new LocusException("cannot reach the NameNode's gear service: " + e.getMessage());
    }
  }

  static Option issueOption() {
    return Option.builder().longOpt("issue").hasArg().argName("METHOD")
        .desc("command issuance: sequential (search and issue file by file) or batch (find"
            + " every block first; default)").build();
  }

  static Option transferOption() {
    return Option.builder().longOpt("transfer").hasArg().argName("METHOD")
        .desc("block transfer: sequential (HDFS's own, a connection per block) or batch (one"
            + " connection per pair of nodes; needs --issue batch; default)").build();
  }

  /** @return the two methods, checked, as the words the NameNode takes */
  static String[] methods(CommandLine line) throws UsageException {
    try {
      CommandIssuance issuance = CommandIssuance.parse(line.getOptionValue("issue", "batch"));
      TransferMethod transfer = TransferMethod.parse(line.getOptionValue("transfer", "batch"));
      transfer.checkWith(issuance);
      return new String[] {issuance.name().toLowerCase(), transfer.name().toLowerCase()};
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** Shifts to {@code level}, down or up, printing progress; returns the exit code. */
  static int shift(Configuration conf, String confOption, int level, String[] methods,
      Console console) throws Exception {
    try (GearClient client = connect(conf)) {
      Map<String, String> status = GearShifter.parse(client.gears().status());
      int current = Integer.parseInt(status.get("gear"));
      if (level == current) {
        console.out().printf("already in gear %d%n", level);
        return 0;
      }
      GearShifter shifter = new GearShifter(client.gears(),
          NodeSwitches.of(confOption, conf), 1000L * conf.getInt(
              NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS,
              NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS_DEFAULT),
          console.out()::println);
      try {
        if (level < current) {
          shifter.down(level);
          console.out().printf("gear %d%n", level);
          return 0;
        }
        console.out().printf("gear up %d -> %d: %s issuance, %s transfer%n", current, level,
            methods[0], methods[1]);
        GearUpReport report = shifter.up(level, methods[0], methods[1]);
        console.out().printf("gear %d: %s; %d entries, %d files, %d blocks, %d bytes of"
            + " metadata; reflected in %d ms%s%n", level, report.state(), report.entries(),
            report.files(), report.blocks(), report.metadataBytes(), report.totalMillis(),
            report.connections() >= 0 ? "; " + report.connections() + " connections" : "");
        if (!"done".equals(report.state())) {
          console.out().printf("  %d blocks left pending in the update log: %s%n",
              report.blocksPending(), report.reason());
          return 1;
        }
        return 0;
      } catch (org.apache.hadoop.ipc.RemoteException e) {
        throw new LocusException(e.getMessage().lines().findFirst().orElse(e.getMessage()));
      }
    }
  }
}
