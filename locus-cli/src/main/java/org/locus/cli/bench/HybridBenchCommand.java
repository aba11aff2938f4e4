package org.locus.cli.bench;

import java.io.File;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.hybrid.HybridBench;
import org.locus.bench.hybrid.HybridBenchRequest;
import org.locus.cli.cluster.NetnsOptions;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.Rate;

/**
 * {@code locus bench hybrid}: argument parsing only; the bench (hybrid vs SSD-only vs HDD-only,
 * a netns cluster per layout) is {@link HybridBench} in {@code locus-bench}.
 */
public final class HybridBenchCommand extends OptionsCommand {
  public HybridBenchCommand() {
    super("locus bench hybrid");
  }

  @Override
  public String name() {
    return "hybrid";
  }

  @Override
  public String summary() {
    return "HDD/SSD hybrid profile vs SSD-only and HDD-only (netns clusters, needs root): job"
        + " time and bytes written to SSD and HDD devices";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("suite").hasArg().argName("NAME")
            .desc("bench suite (default puma-small)").build())
        .addOption(Option.builder().longOpt("jobs").hasArg().argName("ID,...")
            .desc("the suite's jobs to run (default teragen,terasort: shuffle-heavy)").build())
        .addOption(Option.builder().longOpt("runs").hasArg().argName("R")
            .desc("runs per job and layout (default 3)").build())
        .addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
            .desc("netns nodes per layout (default 3)").build())
        .addOption(Option.builder().longOpt("ssd-rate").hasArg().argName("RATE")
            .desc("read and write throttle of an SSD device (default 400MB/s)").build())
        .addOption(Option.builder().longOpt("hdd-rate").hasArg().argName("RATE")
            .desc("read and write throttle of an HDD device (default 40MB/s)").build())
        .addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
            .desc("each node's memory (default 2g)").build())
        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("report directory (default bench-out/hybrid)").build());
  }

  @Override
  protected String usageArguments() {
    return "[--suite NAME] [--jobs ID,...] [--runs R] [--nodes N] [--ssd-rate RATE]"
        + " [--hdd-rate RATE] [--node-memory SIZE] [--out DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int runs = intOption(line, "runs", 3, 1, 100);
    int nodes = intOption(line, "nodes", 3, 1, 16);
    long ssd;
    long hdd;
    try {
      ssd = Rate.diskBytesPerSecond("ssd-rate", line.getOptionValue("ssd-rate", "400MB/s"));
      hdd = Rate.diskBytesPerSecond("hdd-rate", line.getOptionValue("hdd-rate", "40MB/s"));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (ssd == 0 || hdd == 0) {
      throw new UsageException("--ssd-rate and --hdd-rate need a rate, not none: the layouts"
          + " differ only in their devices' speed");
    }
    long memory = NetnsOptions.size("node-memory", line.getOptionValue("node-memory", "2g"));
    File home = BenchSetup.home();
    File out = BenchSetup.reportDirectory(line.getOptionValue("out", "bench-out/hybrid"),
        console);
    List<String> jobs = List.of(line.getOptionValue("jobs", "teragen,terasort").split(","))
        .stream().map(String::trim).toList();
    HybridBenchRequest request = new HybridBenchRequest(
        line.getOptionValue("suite", "puma-small"), jobs, runs, nodes, ssd, hdd, memory,
        2L << 30, 4L << 20, out, home);
    try {
      File report = new HybridBench(request, console.err()).run();
      console.out().println("report: " + report);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return 0;
  }
}
