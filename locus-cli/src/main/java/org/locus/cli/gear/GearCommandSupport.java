package org.locus.cli.gear;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.hadoop.conf.Configuration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.UsageException;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.PartitionHomes;
import org.locus.ndcoupling.gear.CommandIssuance;
import org.locus.ndcoupling.gear.GearUpReport;
import org.locus.ndcoupling.gear.PartitionGearUps;
import org.locus.ndcoupling.gear.TransferMethod;
import org.locus.ndcoupling.rpc.GearProtocol;
import org.locus.ndcoupling.rpc.PartitionGearClients;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;
import org.locus.ndcoupling.shift.GearShifter;
import org.locus.ndcoupling.shift.IndexAdminHandOver;
import org.locus.ndcoupling.shift.PartitionCopies;
import org.locus.ndcoupling.shift.ZkfcHandOver;

/** What the gear commands share: connecting, the method options, running a shift. */
final class GearCommandSupport {
  private GearCommandSupport() {
  }

  /** @return the gear services: every partition's on coupled nodes, else the NameNode's */
  static PartitionGearClients connect(Configuration conf) throws LocusException {
    try {
      return PartitionGearClients.connect(conf);
    } catch (IOException e) {
      throw new LocusException("cannot reach the NameNode's gear service: " + e.getMessage());
    }
  }

  /**
   * @return the partitions with a metadata copy (HA pairs) and how to hand them over, or null
   *     when no partition has one
   */
  static PartitionCopies copies(PartitionGearClients clients, Configuration conf) {
    Map<String, Map<String, GearProtocol>> nameNodes = clients.nameNodes();
    if (nameNodes.isEmpty()) {
      return null;
    }
    Map<String, String> homes = new LinkedHashMap<>();
    for (String ns : nameNodes.keySet()) {
      homes.put(ns, PartitionHomes.homeHost(conf, ns));
    }
    long timeoutMs = 1000L * conf.getInt(NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS,
        NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS_DEFAULT);
    return new PartitionCopies(nameNodes, homes,
        new ZkfcHandOver(conf, (int) Math.min(Integer.MAX_VALUE, timeoutMs)), timeoutMs);
  }

  /**
   * @return every partition's gear service; for a partition with a copy, its active NameNode's
   *     (the copy's while the partition's own node is off)
   */
  static Map<String, GearProtocol> activeGears(PartitionGearClients clients, Configuration conf)
      throws IOException {
    Map<String, GearProtocol> gears = clients.gears();
    PartitionCopies copies = copies(clients, conf);
    if (copies != null) {
      for (String ns : copies.partitions()) {
        gears.put(ns, copies.active(ns));
      }
    }
    return gears;
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
    try (PartitionGearClients clients = connect(conf)) {
      Map<String, GearProtocol> gears = activeGears(clients, conf);
      Map<String, String> status = GearShifter.parse(gears.values().iterator().next().status());
      int current = Integer.parseInt(status.get("gear"));
      if (level == current) {
        console.out().printf("already in gear %d%n", level);
        return 0;
      }
      GearShifter shifter = new GearShifter(gears,
          NodeSwitches.of(confOption, conf), 1000L * conf.getInt(
              NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS,
              NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS_DEFAULT),
          console.out()::println);
      PartitionCopies copies = copies(clients, conf);
      if (copies != null) {
        shifter.withCopies(copies);
        if (IndexAdminHandOver.configured(conf)) {
          shifter.withIndexCopies(new IndexAdminHandOver(conf, 1000L * conf.getInt(
              NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS,
              NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS_DEFAULT)));
        }
      }
      try {
        if (level < current) {
          shifter.down(level);
          console.out().printf("gear %d%n", level);
          return 0;
        }
        console.out().printf("gear up %d -> %d: %s issuance, %s transfer%n", current, level,
            methods[0], methods[1]);
        PartitionGearUps all = shifter.upAll(level, methods[0], methods[1]);
        if (clients.partitioned()) {
          for (Map.Entry<String, GearUpReport> p : all.partitions().entrySet()) {
            GearUpReport r = p.getValue();
            long[] ms = r.stepMillis();
            console.out().printf("  %-6s %s: %d entries, %d blocks, %d bytes of metadata;"
                + " steps %d / %d / %d / %d ms%n", p.getKey(), r.state(), r.entries(),
                r.blocks(), r.metadataBytes(), ms[0], ms[1], ms[2], ms[3]);
          }
          console.out().printf("  all %d partitions at once: %d ms%n", all.partitions().size(),
              all.wallMillis());
          for (Map.Entry<String, long[]> c : shifter.catchUps().entrySet()) {
            console.out().printf("  %-6s step 1: its own NameNode started and caught up to edit"
                + " %d %d ms after its node was switched on%n", c.getKey(), c.getValue()[1],
                c.getValue()[0]);
          }
          for (Map.Entry<String, ReturnShipped> i : shifter.indexShipped().entrySet()) {
            console.out().printf("  %s step 1: %d index pages, %d bytes shipped to its index"
                + " node%n", i.getKey(), i.getValue().pages(), i.getValue().bytes());
          }
        }
        GearUpReport report = all.combined();
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
