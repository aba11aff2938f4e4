package org.locus.cli.bench;

import java.io.File;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.locus.bench.kat.KatBench;
import org.locus.cli.cluster.FeatureCatalog;
import org.locus.cli.cluster.NetnsOptions;
import org.locus.cli.command.Console;
import org.locus.cli.command.HadoopLogFile;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.Rate;

/**
 * {@code locus bench kat}: argument parsing only; the bench (native placement vs KAT on the
 * embedded or a shaped netns cluster) is {@link KatBench} in {@code locus-bench}.
 */
public final class KatBenchCommand extends OptionsCommand {
  public KatBenchCommand() {
    super("locus bench kat");
  }

  @Override
  public String name() {
    return "kat";
  }

  @Override
  public String summary() {
    return "KAT vs native placement: WordCount and Grep wall time, shuffle bytes crossing hosts,"
        + " bytes on the wire (netns), data-local maps, identical output";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("cluster").hasArg().argName("KIND")
            .desc("embedded (one JVM, loopback; default) or netns (stock daemons in network"
                + " namespaces, shaped links; needs root)").build())
        .addOption(Option.builder().longOpt("link").hasArg().argName("RATE")
            .desc("netns only: every node's link each way, e.g. 10mbit, 1250kbit, none"
                + " (default 10mbit)").build())
        .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
            .desc("netns only: cluster directory (default /tmp/locus-bench-kat-netns)").build())
        .addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
            .desc("netns only: each node's memory, daemons and containers (default 2g: two"
                + " 512 MiB task containers per node)").build())
        .addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
            .desc("cluster nodes (default 4)").build())
        .addOption(Option.builder().longOpt("size").hasArg().argName("MIB")
            .desc("corpus size in MiB (default 8)").build())
        .addOption(Option.builder().longOpt("block").hasArg().argName("MIB")
            .desc("HDFS block size in MiB (default 1); with --size it sets the map count, so"
                + " a larger corpus can keep native's 8 maps").build())
        .addOption(Option.builder().longOpt("runs").hasArg().argName("R")
            .desc("runs of each job and placement, at least 3 for a spread (default 3)").build())
        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("report directory (default bench-out/kat)").build());
  }

  @Override
  protected String usageArguments() {
    return "[--cluster embedded|netns] [--link RATE] [--dir DIR] [--node-memory SIZE]"
        + " [--nodes N] [--size MIB] [--block MIB] [--runs R] [--out DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    String kind = line.getOptionValue("cluster", "embedded");
    if (!kind.equals("embedded") && !kind.equals("netns")) {
      throw new UsageException("--cluster takes embedded or netns, not '" + kind + "'");
    }
    boolean netns = kind.equals("netns");
    if (!netns && (line.hasOption("link") || line.hasOption("dir")
        || line.hasOption("node-memory"))) {
      throw new UsageException("--link, --dir and --node-memory need --cluster netns (the"
          + " embedded cluster's links are loopback, its nodes share one JVM)");
    }
    int nodes = intOption(line, "nodes", 4, 2, 16);
    int sizeMib = intOption(line, "size", 8, 1, 4096);
    int blockMib = intOption(line, "block", 1, 1, 1024);
    int runs = intOption(line, "runs", 3, 1, 100);
    String link = line.getOptionValue("link", "10mbit");
    String nodeMemory = line.getOptionValue("node-memory", "2g");
    String home = System.getProperty("locus.home");
    if (netns) {
      try {
        Rate.linkBitsPerSecond("link", link);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
      NetnsOptions.size("node-memory", nodeMemory);
      if (home == null) {
        throw new LocusException("locus.home is not set; run through bin/locus");
      }
    }
    Configuration katKeys = FeatureCatalog.installed().keysOf("kat");
    File out = new File(line.getOptionValue("out", "bench-out/kat"));
    KatBench.reportDirectory(out);
    File log = new File(out, "hadoop.log");
    HadoopLogFile.redirectTo(log);
    console.err().println("Hadoop's own logs: " + log);
    new KatBench(new KatBench.Request(netns,
        new File(line.getOptionValue("dir", "/tmp/locus-bench-kat-netns")).getAbsoluteFile(),
        link, nodeMemory, nodes, sizeMib, blockMib, runs, katKeys,
        home == null ? null : new File(home), out)).run(console.out(), console.err());
    return 0;
  }
}
