package org.locus.cli.bench;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.metadata.MetadataBench;
import org.locus.bench.metadata.MetadataBenchRequest;
import org.locus.bench.metadata.MetadataLayoutUnderTest;
import org.locus.cli.cluster.NetnsOptions;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.NodeCpus;

/**
 * {@code locus bench metadata}: argument parsing only; the bench (seed 004 §5.3: one NameNode,
 * SDP and Fat-Btree metadata throughput on 1 to N coupled netns nodes) is {@link MetadataBench}
 * in {@code locus-bench}.
 */
public final class MetadataBenchCommand extends OptionsCommand {
  static final String DEFAULT_LAYOUTS = "single,sdp,fatbtree";

  public MetadataBenchCommand() {
    super("locus bench metadata");
  }

  @Override
  public String name() {
    return "metadata";
  }

  @Override
  public String summary() {
    return "NDCouplingHDFS metadata throughput, one NameNode vs SDP vs Fat-Btree by nodes"
        + " (netns clusters, needs root)";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("nodes").hasArg().argName("N,...")
            .desc("cluster sizes, one netns cluster each (default 1,2,4,8)").build())
        .addOption(Option.builder().longOpt("configs").hasArg().argName("NAME,...")
            .desc("layouts compared (default " + DEFAULT_LAYOUTS + ")").build())
        .addOption(Option.builder().longOpt("files").hasArg().argName("F")
            .desc("files per run (default 3000, seed 004 Table 5)").build())
        .addOption(Option.builder().longOpt("file-size").hasArg().argName("BYTES")
            .desc("bytes per file (default 1024)").build())
        .addOption(Option.builder().longOpt("runs").hasArg().argName("R")
            .desc("runs of every layout per cluster size (default 3)").build())
        .addOption(Option.builder().longOpt("node-cpus").hasArg().argName("CORES")
            .desc("every node's CPU cap (default 0.25: 8 nodes fit 2 cores)").build())
        .addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
            .desc("every node's memory (default 1536m: with three or more nodes each runs its"
                + " partition's copy daemons too)").build())
        .addOption(Option.builder().longOpt("no-nnthroughput")
            .desc("skip Hadoop's NNThroughputBenchmark on node1").build())
        .addOption(Option.builder().longOpt("conf").hasArg().argName("KEY=VALUE")
            .desc("a key for every daemon and client (repeatable)").build())
        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("report directory; the clusters go below it (default bench-out/metadata)")
            .build());
  }

  @Override
  protected String usageArguments() {
    return "[--nodes N,...] [--configs NAME,...] [--files F] [--file-size BYTES] [--runs R]"
        + " [--node-cpus CORES] [--node-memory SIZE] [--no-nnthroughput]"
        + " [--conf KEY=VALUE ...] [--out DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.getArgList().isEmpty()) {
      throw new UsageException("bench metadata takes no arguments");
    }
    List<Integer> nodeCounts = new ArrayList<>();
    for (String n : line.getOptionValue("nodes", "1,2,4,8").split(",")) {
      try {
        nodeCounts.add(Integer.parseInt(n.trim()));
      } catch (NumberFormatException e) {
        throw new UsageException("--nodes takes node counts like 1,2,4,8, got '" + n + "'");
      }
    }
    Map<String, String> keys = new TreeMap<>();
    String[] confs = line.getOptionValues("conf");
    for (String kv : confs == null ? new String[0] : confs) {
      int eq = kv.indexOf('=');
      if (eq < 1) {
        throw new UsageException("--conf takes KEY=VALUE, got '" + kv + "'");
      }
      keys.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    MetadataBenchRequest request;
    try {
      request = new MetadataBenchRequest(nodeCounts,
          MetadataLayoutUnderTest.parse(line.getOptionValue("configs", DEFAULT_LAYOUTS)),
          intOption(line, "files", 3000, 1, 1_000_000),
          intOption(line, "file-size", 1024, 1, 1 << 20),
          intOption(line, "runs", 3, 1, 100),
          NodeCpus.parse("node-cpus", line.getOptionValue("node-cpus", "0.25")),
          NetnsOptions.size("node-memory", line.getOptionValue("node-memory", "1536m")),
          !line.hasOption("no-nnthroughput"), keys,
          new File(line.getOptionValue("out", "bench-out/metadata")).getAbsoluteFile(),
          BenchSetup.home());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    BenchSetup.reportDirectory(request.out().getPath(), console);
    console.out().println("report: " + new MetadataBench(request, console.err()).run());
    return 0;
  }
}
