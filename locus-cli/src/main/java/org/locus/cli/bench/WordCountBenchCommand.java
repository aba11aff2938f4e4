package org.locus.cli.bench;

import java.io.File;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.coupled.CoupledWordCountBench;
import org.locus.bench.coupled.CoupledWordCountRequest;
import org.locus.cli.cluster.NetnsOptions;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;

/**
 * {@code locus bench wordcount}: argument parsing only; the bench (WordCount over one-block
 * files on stock HDFS and on coupled nodes) is {@link CoupledWordCountBench} in
 * {@code locus-bench}.
 */
public final class WordCountBenchCommand extends OptionsCommand {
  public WordCountBenchCommand() {
    super("locus bench wordcount");
  }

  @Override
  public String name() {
    return "wordcount";
  }

  @Override
  public String summary() {
    return "NDCouplingHDFS: WordCount over one-block files, stock HDFS vs coupled nodes (map"
        + " and reduce phase times; netns clusters, needs root)";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
            .desc("netns nodes of each cluster (default 4)").build())
        .addOption(Option.builder().longOpt("files").hasArg().argName("F")
            .desc("one-block input files (default 1024, as the seed)").build())
        .addOption(Option.builder().longOpt("file-size").hasArg().argName("SIZE")
            .desc("bytes per file, e.g. 64k or 1m (default 64k)").build())
        .addOption(Option.builder().longOpt("runs").hasArg().argName("R")
            .desc("WordCount runs per cluster over the same input (default 3)").build())
        .addOption(Option.builder().longOpt("writers").hasArg().argName("W")
            .desc("client threads writing the input (default 16)").build())
        .addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
            .desc("each node's memory (default 2688m: 1600 MiB of coupled daemons with their"
                + " copies, 1024 MiB of containers)").build())
        .addOption(Option.builder().longOpt("container-memory").hasArg().argName("MB")
            .desc("MiB each NodeManager offers to containers on both clusters (default 1024)")
            .build())
        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("report directory (default bench-out/wordcount)").build());
  }

  @Override
  protected String usageArguments() {
    return "[--nodes N] [--files F] [--file-size SIZE] [--runs R] [--writers W]"
        + " [--node-memory SIZE] [--container-memory MB] [--out DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.getArgList().isEmpty()) {
      throw new UsageException("bench wordcount takes no arguments");
    }
    int fileBytes = BenchSetup.oneBlockFileBytes(line.getOptionValue("file-size", "64k"));
    Map<String, String> keys = BenchSetup.featureKeys("ndcoupling");
    CoupledWordCountRequest request = new CoupledWordCountRequest(
        intOption(line, "nodes", 4, 2, 16), intOption(line, "files", 1024, 1, 100_000),
        fileBytes, intOption(line, "runs", 3, 1, 20), intOption(line, "writers", 16, 1,
        256), NetnsOptions.size("node-memory", line.getOptionValue("node-memory", "2688m")),
        intOption(line, "container-memory", 1024, 512, 65536), keys,
        new File(line.getOptionValue("out", "bench-out/wordcount")).getAbsoluteFile(),
        BenchSetup.home());
    BenchSetup.reportDirectory(request.out().getPath(), console);
    console.out().println("report: " + new CoupledWordCountBench(request, console.err()).run());
    return 0;
  }
}
