package org.locus.cli.bench;

import java.io.File;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.gears.GearBench;
import org.locus.bench.gears.GearBenchConfig;
import org.locus.bench.gears.GearBenchRequest;
import org.locus.cli.cluster.NetnsOptions;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.energy.EnergyConfigKeys;
import org.locus.netns.Rate;

/**
 * {@code locus bench gears}: argument parsing only; the bench (gear-up reflection of NormalHDFS,
 * batch issuance and batch transfer on netns clusters) is {@link GearBench} in
 * {@code locus-bench}.
 */
public final class GearBenchCommand extends OptionsCommand {
  static final String DEFAULT_CONFIGS = "normal,batch-seq,batch-batch,normal-stock";

  public GearBenchCommand() {
    super("locus bench gears");
  }

  @Override
  public String name() {
    return "gears";
  }

  @Override
  public String summary() {
    return "NDCouplingHDFS gear-up reflection, NormalHDFS vs batch issuance and transfer"
        + " (netns clusters, needs root)";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("configs").hasArg().argName("NAME,...")
            .desc("configurations (default " + DEFAULT_CONFIGS + "; known: "
                + String.join(",", GearBenchConfig.ALL.keySet()) + "; sss, sbs, sbb and fbb run"
                + " on coupled nodes, seed 004 Table 1; with fbb among them the coupled cluster"
                + " also hosts the Fat-Btree index)").build())
        .addOption(Option.builder().longOpt("config").hasArg().argName("NAME,...")
            .desc("the same as --configs").build())
        .addOption(Option.builder().longOpt("runs").hasArg().argName("R")
            .desc("measured runs per configuration (default 3)").build())
        .addOption(Option.builder().longOpt("stock-runs").hasArg().argName("R")
            .desc("runs of normal-stock (2 replication streams, 3 s heartbeats: slow; default"
                + " --runs)").build())
        .addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
            .desc("netns nodes; the low gear has the first half on (default 8)").build())
        .addOption(Option.builder().longOpt("files").hasArg().argName("F")
            .desc("one-block files written in low gear per run (default 4000)").build())
        .addOption(Option.builder().longOpt("file-size").hasArg().argName("SIZE")
            .desc("bytes per file, e.g. 64k or 1m (default 64k)").build())
        .addOption(Option.builder().longOpt("writers").hasArg().argName("W")
            .desc("client threads writing the files (default 16)").build())
        .addOption(Option.builder().longOpt("whole-nodes")
            .desc("on coupled nodes, switch whole nodes off (every daemon; the partition served"
                + " by its copy, the returning NameNode's catch-up timed as step 1; with fbb's"
                + " cluster the index node too, its changed pages shipped back in step 1)"
                + " instead of their DataNodes only; needs 3 or more nodes").build())
        .addOption(Option.builder().longOpt("link").hasArg().argName("RATE")
            .desc("each node's link, e.g. 1gbit (default none: unshaped)").build())
        .addOption(Option.builder().longOpt("disk-rate").hasArg().argName("RATE")
            .desc("read and write throttle of every node's disk (default none)").build())
        .addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
            .desc("each node's memory (default 1g; " + COPIES_NODE_MEMORY + " when a coupled"
                + " configuration runs on three or more nodes, whose partitions have copies)")
            .build())
        .addOption(Option.builder().longOpt("node-watts").hasArg().argName("W")
            .desc("modelled node power besides its disk (default the energy module's "
                + EnergyConfigKeys.NODE_BASE_WATTS_DEFAULT + ")").build())
        .addOption(Option.builder().longOpt("heavy-hours").hasArg().argName("H")
            .desc("hours a day of heavy load in the modelled energy (default 8)").build())
        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("report directory (default bench-out/gears)").build());
  }

  /** The default node memory of a bench with coupled nodes that have copies. */
  static final String COPIES_NODE_MEMORY = "2g";

  @Override
  protected String usageArguments() {
    return "[--configs|--config NAME,...] [--runs R] [--stock-runs R] [--nodes N] [--files F]"
        + " [--file-size SIZE] [--writers W] [--whole-nodes] [--link RATE] [--disk-rate RATE] [--node-memory SIZE]"
        + " [--node-watts W] [--heavy-hours H] [--out DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.getArgList().isEmpty()) {
      throw new UsageException("bench gears takes no arguments");
    }
    int runs = intOption(line, "runs", 3, 1, 100);
    int stockRuns = intOption(line, "stock-runs", runs, 1, 100);
    int nodes = intOption(line, "nodes", 8, 2, 32);
    int files = intOption(line, "files", 4000, 1, 1_000_000);
    int writers = intOption(line, "writers", 16, 1, 256);
    int fileBytes = BenchSetup.oneBlockFileBytes(line.getOptionValue("file-size", "64k"));
    List<GearBenchConfig> configs;
    try {
      configs = GearBenchConfig.parse(line.getOptionValue("configs",
          line.getOptionValue("config", DEFAULT_CONFIGS)));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    // A coupled node with its partition's copy runs eight daemons (about 1.1 GB resident); in
    // 1 GiB its memory cgroup killed NameNodes during an 8-node run's low-gear writes.
    boolean copies = nodes >= 3 && configs.stream().anyMatch(GearBenchConfig::coupled);
    long memory = NetnsOptions.size("node-memory", line.getOptionValue("node-memory",
        copies ? COPIES_NODE_MEMORY : "1g"));
    GearBenchRequest request;
    try {
      request = new GearBenchRequest(configs, runs,
          stockRuns, nodes,
          files, fileBytes, writers, line.hasOption("whole-nodes"),
          Rate.linkBitsPerSecond("link", line.getOptionValue("link", "none")),
          Rate.diskBytesPerSecond("disk-rate", line.getOptionValue("disk-rate", "none")),
          memory, Double.parseDouble(line.getOptionValue("node-watts",
              Double.toString(EnergyConfigKeys.NODE_BASE_WATTS_DEFAULT))),
          Double.parseDouble(line.getOptionValue("heavy-hours", "8")),
          BenchSetup.featureKeys("ndcoupling"),
          new File(line.getOptionValue("out", "bench-out/gears")).getAbsoluteFile(),
          BenchSetup.home());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    BenchSetup.reportDirectory(request.out().getPath(), console);
    console.out().println("report: " + new GearBench(request, console.err()).run());
    return 0;
  }
}
