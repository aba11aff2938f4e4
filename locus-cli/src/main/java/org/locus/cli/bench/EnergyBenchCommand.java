package org.locus.cli.bench;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.BenchException;
import org.locus.bench.energy.EnergyBench;
import org.locus.bench.energy.EnergyBenchCluster.Setup;
import org.locus.cli.command.Console;
import org.locus.cli.command.HadoopLogFile;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.energy.EnergyConfigKeys;

/**
 * {@code locus bench energy}: argument parsing only; the bench (native HDFS vs energy-efficient
 * HDFS without and with prediction) is {@link EnergyBench} in {@code locus-bench}.
 */
public final class EnergyBenchCommand extends OptionsCommand {
  public EnergyBenchCommand() {
    super("locus bench energy");
  }

  @Override
  public String name() {
    return "energy";
  }

  @Override
  public String summary() {
    return "energy-efficient HDFS (with/without prediction) vs native: energy, time, Pt on a"
        + " corpus-writing job, WordCount and a SWIM trace replay";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
        .desc("report directory; Hadoop's log goes to DIR/hadoop.log (default"
            + " bench-results/energy)").build());
    options.addOption(Option.builder().longOpt("files").hasArg().argName("N")
        .desc("files of the WordCount corpus (default 48)").build());
    options.addOption(Option.builder().longOpt("write-files").hasArg().argName("N")
        .desc("files the write-heavy job writes, one map task each (default 16)").build());
    options.addOption(Option.builder().longOpt("file-kib").hasArg().argName("KIB")
        .desc("size of each corpus file in KiB (default 8192)").build());
    options.addOption(Option.builder().longOpt("setups").hasArg().argName("LIST")
        .desc("set-ups to run, comma-separated, native always included: native, energy,"
            + " prediction, offload (default native,energy,prediction)").build());
    options.addOption(Option.builder().longOpt("block-kib").hasArg().argName("KIB")
        .desc("HDFS block size in KiB (default 4096)").build());
    options.addOption(Option.builder().longOpt("rounds").hasArg().argName("N")
        .desc("rounds, each set-up once per round, order mirrored every other round so drift"
            + " in machine load cancels (default 2)").build());
    options.addOption(Option.builder().longOpt("cluster").hasArg().argName("KIND")
        .desc("embedded (default: one JVM, loopback hosts) or netns (stock daemons as"
            + " processes in network namespaces, one power manager per DataNode process; needs"
            + " root)").build());
    options.addOption(Option.builder().longOpt("swim-hours").hasArg().argName("H")
        .desc("the mixed workload replays the jobs FB-2009 submitted in its first H hours,"
            + " 0 to 1 (default 0.25: 15 jobs; 0 leaves it out)").build());
    options.addOption(Option.builder().longOpt("swim-compress").hasArg().argName("X")
        .desc("submit the replayed jobs X times faster than the trace (default 5)").build());
    options.addOption(Option.builder().longOpt("node-watts").hasArg().argName("W")
        .desc("node power besides disks (default "
            + EnergyConfigKeys.NODE_BASE_WATTS_DEFAULT + ")").build());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "[--out DIR] [--files N] [--write-files N] [--file-kib KIB] [--block-kib KIB]"
        + " [--rounds N]"
        + " [--setups LIST] [--cluster embedded|netns] [--swim-hours H] [--swim-compress X]"
        + " [--node-watts W]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int files = intOption(line, "files", 48, 1, 1024);
    int writeFiles = intOption(line, "write-files", 16, 1, 1024);
    int fileKib = intOption(line, "file-kib", 8192, 64, 1024 * 1024);
    int blockKib = intOption(line, "block-kib", 4096, 64, 1024 * 1024);
    if (blockKib % 64 != 0) {
      throw new UsageException("--block-kib must be a multiple of 64 (HDFS checksum chunks),"
          + " got " + blockKib);
    }
    double nodeWatts = nodeWatts(line.getOptionValue("node-watts",
        Double.toString(EnergyConfigKeys.NODE_BASE_WATTS_DEFAULT)));
    int rounds = intOption(line, "rounds", 2, 1, 10);
    double swimHours = fraction(line, "swim-hours", "0.25", 0, 1);
    double swimCompress = fraction(line, "swim-compress", "5", Double.MIN_VALUE, 3600);
    List<Setup> setups = setups(line.getOptionValue("setups", "native,energy,prediction"));
    String cluster = line.getOptionValue("cluster", "embedded");
    if (!cluster.equals("embedded") && !cluster.equals("netns")) {
      throw new UsageException("--cluster must be embedded or netns, got '" + cluster + "'");
    }
    File home = cluster.equals("netns") ? BenchSetup.home() : null;
    File out = new File(line.getOptionValue("out", "bench-results/energy")).getAbsoluteFile();
    File log = new File(out, "hadoop.log");
    HadoopLogFile.redirectTo(log);
    console.err().println("Hadoop's own logs: " + log);
    try {
      new EnergyBench(new EnergyBench.Request(files, writeFiles, fileKib, blockKib, rounds,
          setups, nodeWatts, out, home, swimHours, swimCompress))
          .run(console.out(), console.err());
    } catch (BenchException e) {
      throw new LocusException(e.getMessage(), e);
    }
    return 0;
  }

  /** @return the option's number, which must lie in [min, max] */
  private static double fraction(CommandLine line, String option, String fallback, double min,
      double max) throws UsageException {
    String text = line.getOptionValue(option, fallback);
    try {
      double value = Double.parseDouble(text.trim());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--" + option + " must be a number from "
        + (min == Double.MIN_VALUE ? "above 0" : String.valueOf(min)) + " to " + max
        + ", got '" + text + "'");
  }

  private static double nodeWatts(String text) throws UsageException {
    try {
      double watts = Double.parseDouble(text.trim());
      if (watts >= 0 && watts < 100_000) {
        return watts;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--node-watts must be a number of watts, 0 or more, got '" + text
        + "'");
  }

  /** @return the set-ups named in {@code list}, native first */
  static List<Setup> setups(String list) throws UsageException {
    List<Setup> setups = new ArrayList<>(List.of(Setup.NATIVE));
    for (String name : list.split(",")) {
      String trimmed = name.trim().toUpperCase();
      if (trimmed.isEmpty()) {
        continue;
      }
      try {
        Setup setup = Setup.valueOf(trimmed);
        if (!setups.contains(setup)) {
          setups.add(setup);
        }
      } catch (IllegalArgumentException e) {
        throw new UsageException("--setups: unknown set-up '" + name.trim()
            + "'; choose from native, energy, prediction, offload");
      }
    }
    return setups;
  }
}
