package org.locus.cli.bench;

import java.io.File;
import java.util.List;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.boost.BoostBench;
import org.locus.bench.boost.BoostBenchRequest;
import org.locus.bench.run.TaskMemory;
import org.locus.cli.cluster.NetnsOptions;
import org.locus.cli.command.Console;
import org.locus.cli.command.KeyValueOption;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.DiskModel;
import org.locus.netns.Rate;

/**
 * {@code locus bench boost}: argument parsing only; the bench (BoostDFS vs HDFS at the same
 * capacity or availability, a netns cluster per layout) is {@link BoostBench} in
 * {@code locus-bench}.
 */
public final class BoostBenchCommand extends OptionsCommand {
  static final String DEFAULT_JOBS =
      "grep,wordcount,histogram-movies,histogram-ratings,classification,k-means";

  public BoostBenchCommand() {
    super("locus bench boost");
  }

  @Override
  public String name() {
    return "boost";
  }

  @Override
  public String summary() {
    return "BoostDFS vs HDFS at the same capacity or availability (netns clusters, needs root):"
        + " job time and superlocal maps";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("suite").hasArg().argName("NAME")
            .desc("bench suite (default puma-small)").build())
        .addOption(Option.builder().longOpt("jobs").hasArg().argName("ID,...")
            .desc("the suite's jobs (default " + DEFAULT_JOBS + ")").build())
        .addOption(Option.builder().longOpt("runs").hasArg().argName("R")
            .desc("runs per job and layout (default 3)").build())
        .addOption(Option.builder().longOpt("warmup").hasArg().argName("W")
            .desc("unrecorded runs per job and layout before the measured ones (default 0)")
            .build())
        .addOption(Option.builder().longOpt("interleave")
            .desc("both layouts' clusters up at once (twice the memory), each run of a job"
                + " on one, then the other, the order reversed every other run; default: one"
                + " cluster after the other").build())
        .addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
            .desc("netns nodes per layout (default 4)").build())
        .addOption(Option.builder().longOpt("copies").hasArg().argName("R")
            .desc("HDFS's copies of every block (default 3); BoostDFS keeps as many, or one more"
                + " with --compare availability").build())
        .addOption(Option.builder().longOpt("compare").hasArg().argName("WHAT")
            .desc("capacity: BoostDFS keeps the same device copies on one node fewer;"
                + " availability: the same nodes plus the intra-node copy (default capacity)")
            .build())
        .addOption(Option.builder().longOpt("disk-rate").hasArg().argName("RATE")
            .desc("read and write throttle of every device (default 40MB/s)").build())
        .addOption(Option.builder().longOpt("disk-model").hasArg().argName("MODEL")
            .desc("what every device is below its throttle: none (a loop device, default) or"
                + " hdd (the emulated Seagate ES.3 with seeks and rotation; modelled,"
                + " docs/netns.md)").build())
        .addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
            .desc("each node's memory (default 2g)").build())
        .addOption(Option.builder().longOpt("map-memory").hasArg().argName("SIZE")
            .desc("a map task's container, a multiple of 256m (YARN's smallest allocation"
                + " here; default: the cluster's, 512m)").build())
        .addOption(Option.builder().longOpt("am-memory").hasArg().argName("SIZE")
            .desc("the MapReduce AM's container, a multiple of 256m (default: the cluster's,"
                + " 512m)").build())
        .addOption(Option.builder().longOpt("job-key").hasArg().argName("KEY=VALUE")
            .desc("a job key both layouts' jobs are submitted with (repeatable), e.g."
                + " mapreduce.map.speculative=false").build())
        .addOption(Option.builder().longOpt("block-size").hasArg().argName("SIZE")
            .desc("HDFS block size of both layouts, so one map's split (default 4m)").build())
        .addOption(Option.builder().longOpt("resume")
            .desc("keep the runs the report directory's results.json already has and do the"
                + " others; with every run there, only write the report again").build())
        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("report directory (default bench-out/boost)").build());
  }

  @Override
  protected String usageArguments() {
    return "[--suite NAME] [--jobs ID,...] [--runs R] [--warmup W] [--interleave] [--nodes N]"
        + " [--copies R] [--compare capacity|availability]"
        + " [--disk-rate RATE] [--node-memory SIZE]"
        + " [--map-memory SIZE] [--am-memory SIZE] [--job-key KEY=VALUE ...]"
        + " [--block-size SIZE] [--out DIR] [--resume]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int runs = intOption(line, "runs", 3, 1, 100);
    int nodes = intOption(line, "nodes", 4, 2, 16);
    int warmups = intOption(line, "warmup", 0, 0, 10);
    int copies = intOption(line, "copies", 3, 3, 17);
    long rate;
    try {
      rate = Rate.diskBytesPerSecond("disk-rate", line.getOptionValue("disk-rate", "40MB/s"));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (rate == 0) {
      throw new UsageException("--disk-rate needs a rate, not none: the comparison is about"
          + " disk-bound jobs");
    }
    long memory = NetnsOptions.size("node-memory", line.getOptionValue("node-memory", "2g"));
    // in whole MiB (Size): above the NameNode's 1 MiB minimum, a multiple of the checksum chunk
    long block = NetnsOptions.size("block-size", line.getOptionValue("block-size", "4m"));
    long mapMemory = line.hasOption("map-memory")
        ? NetnsOptions.size("map-memory", line.getOptionValue("map-memory")) : 0;
    long amMemory = line.hasOption("am-memory")
        ? NetnsOptions.size("am-memory", line.getOptionValue("am-memory")) : 0;
    Map<String, String> jobKeys = KeyValueOption.pairs(line, "job-key");
    File home = BenchSetup.home();
    Map<String, String> keys = BenchSetup.featureKeys("boost");
    List<String> jobs = List.of(line.getOptionValue("jobs", DEFAULT_JOBS).split(",")).stream()
        .map(String::trim).toList();
    File out = new File(line.getOptionValue("out", "bench-out/boost")).getAbsoluteFile();
    BoostBenchRequest request;
    try {
      request = new BoostBenchRequest(line.getOptionValue("suite", "puma-small"), jobs, runs,
          warmups, line.hasOption("interleave"), line.hasOption("resume"), nodes, copies,
          BoostBenchRequest.Comparison.of(line.getOptionValue("compare", "capacity")), rate,
          DiskModel.of("--disk-model", line.getOptionValue("disk-model",
              DiskModel.NONE.word())), memory, 2L << 30, block, new TaskMemory(mapMemory, amMemory), jobKeys, keys, out,
          home);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    BenchSetup.reportDirectory(out.getPath(), console);
    try {
      File report = new BoostBench(request, console.err()).run();
      console.out().println("report: " + report);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return 0;
  }
}
