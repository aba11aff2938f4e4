package org.locus.cli.bench;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.lowpower.LowpowerBench;
import org.locus.bench.lowpower.LowpowerBenchRequest;
import org.locus.cli.cluster.NetnsOptions;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.NodeCpus;
import org.locus.netns.Rate;

/**
 * {@code locus bench lowpower}: argument parsing only; the bench (seed 003's remedies on
 * CPU-limited netns nodes, side by side with stock) is {@link LowpowerBench} in
 * {@code locus-bench}.
 */
public final class LowpowerBenchCommand extends OptionsCommand {
  public LowpowerBenchCommand() {
    super("locus bench lowpower");
  }

  @Override
  public String name() {
    return "lowpower";
  }

  @Override
  public String summary() {
    return "low-power remedies (direct I/O, checksum chunk, LZ4/LZO output) on CPU-limited"
        + " netns nodes vs stock (needs root): write and read throughput, CPU per GiB";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
            .desc("DataNodes per cluster (default 3)").build())
        .addOption(Option.builder().longOpt("node-cpus").hasArg().argName("CORES")
            .desc("CPU of each node in cores: the weak core (default 0.5)").build())
        .addOption(Option.builder().longOpt("replication").hasArg().argName("R,...")
            .desc("replication factors (default 1,3)").build())
        .addOption(Option.builder().longOpt("size").hasArg().argName("MiB")
            .desc("MiB each probe writes and reads back (default 64)").build())
        .addOption(Option.builder().longOpt("rounds").hasArg().argName("N")
            .desc("rounds, each measuring every row once (default 3)").build())
        .addOption(Option.builder().longOpt("disk-rate").hasArg().argName("RATE")
            .desc("read and write throttle of every DataNode device, e.g. 40MB/s (default"
                + " none)").build())
        .addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
            .desc("each node's memory (default 1g)").build())
        .addOption(Option.builder().longOpt("opt-in").hasArg().argName("DIR")
            .desc("the LZO opt-in bundle (GPL-3.0), e.g. locus-lzo/target/opt-in: adds an LZO"
                + " row").build())
        .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
            .desc("where the two clusters live (default /tmp/locus-bench-lowpower)").build())
        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("report directory (default bench-out/lowpower)").build());
  }

  @Override
  protected String usageArguments() {
    return "[--nodes N] [--node-cpus CORES] [--replication R,...] [--size MiB] [--rounds N]"
        + " [--disk-rate RATE] [--node-memory SIZE] [--opt-in DIR] [--dir DIR] [--out DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int nodes = intOption(line, "nodes", 3, 1, 16);
    int rounds = intOption(line, "rounds", 3, 1, 100);
    int sizeMib = intOption(line, "size", 64, 1, 4096);
    double cpus;
    try {
      cpus = NodeCpus.parse("node-cpus", line.getOptionValue("node-cpus", "0.5"));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    List<Integer> replications = new ArrayList<>();
    for (String r : line.getOptionValue("replication", "1,3").split(",")) {
      try {
        replications.add(Integer.parseInt(r.trim()));
      } catch (NumberFormatException e) {
        throw new UsageException("--replication takes numbers separated by commas, e.g. 1,3;"
            + " not '" + line.getOptionValue("replication") + "'");
      }
    }
    long diskRate;
    try {
      diskRate = Rate.diskBytesPerSecond("disk-rate", line.getOptionValue("disk-rate", "none"));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    long memory = NetnsOptions.size("node-memory", line.getOptionValue("node-memory", "1g"));
    List<File> optIn = OptInJars.of(line);
    File home = BenchSetup.home();
    Map<String, String> keys = BenchSetup.featureKeys("lowpower");
    File out = new File(line.getOptionValue("out", "bench-out/lowpower")).getAbsoluteFile();
    LowpowerBenchRequest request;
    try {
      request = new LowpowerBenchRequest(nodes, cpus, (long) sizeMib << 20, rounds,
          replications, diskRate, optIn, keys, memory,
          new File(line.getOptionValue("dir", "/tmp/locus-bench-lowpower")), out, home);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    BenchSetup.reportDirectory(out.getPath(), console);
    File report = new LowpowerBench(request, console.err()).run();
    console.out().println("report: " + report);
    return 0;
  }
}
