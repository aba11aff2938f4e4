package org.locus.cli.bench;

import java.io.File;
import java.io.IOException;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.locus.bench.replay.ReplayFile;
import org.locus.bench.replay.SwimReplayBench;
import org.locus.bench.replay.SwimTraces;
import org.locus.bench.run.BenchCluster;
import org.locus.bench.run.ExistingCluster;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.swim.SwimScaling;

/**
 * {@code locus bench swim}: argument parsing only; the replay is
 * {@link SwimReplayBench} in {@code locus-bench}.
 */
public final class BenchSwimCommand extends OptionsCommand {
  public BenchSwimCommand() {
    super("locus bench swim");
  }

  @Override
  public String name() {
    return "swim";
  }

  @Override
  public String summary() {
    return "replay a SWIM trace's first hours: synthetic jobs submitted at their (compressed)"
        + " trace times; replay.json and timeline.svg";
  }

  @Override
  protected String usageArguments() {
    return "--trace fb2009|fb2010|FILE --out DIR [--conf DIR | --cluster embedded|local]"
        + " [--hours H] [--compress X] [--nodes N] [--trace-nodes N] [--divisor X]"
        + " [--min BYTES] [--max BYTES] [--reducers N]";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("trace").hasArg().argName("TRACE")
        .desc("fb2009 or fb2010 (first-hour samples bundled with Locus) or a SWIM trace file;"
            + " required").build());
    options.addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
        .desc("directory for replay.json, timeline.svg and Hadoop's log (hadoop.log);"
            + " required").build());
    options.addOption(ClientConfiguration.option());
    options.addOption(Option.builder().longOpt("cluster").hasArg().argName("KIND")
        .desc("without --conf: embedded (a multi-host mini cluster started for the replay,"
            + " default) or local (LocalJobRunner: checks a trace quickly; its timings, and"
            + " the input and output bytes of overlapping jobs, are not a cluster's)").build());
    options.addOption(Option.builder().longOpt("hours").hasArg().argName("H")
        .desc("replay the jobs submitted in the trace's first H hours (default 1)").build());
    options.addOption(Option.builder().longOpt("compress").hasArg().argName("X")
        .desc("submit X times faster than the trace (default 1: the trace's own pace)")
        .build());
    options.addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
        .desc("nodes of the cluster here, for scaling and the embedded cluster (default 4)")
        .build());
    options.addOption(Option.builder().longOpt("trace-nodes").hasArg().argName("N")
        .desc("nodes of the traced cluster for a trace FILE (default 600, Facebook 2009's;"
            + " fb2009 = 600, fb2010 = 3000)").build());
    options.addOption(Option.builder().longOpt("divisor").hasArg().argName("X")
        .desc("divide every byte count by X (default trace nodes / --nodes)").build());
    options.addOption(Option.builder().longOpt("min").hasArg().argName("BYTES")
        .desc("smallest non-zero byte target (default 64k)").build());
    options.addOption(Option.builder().longOpt("max").hasArg().argName("BYTES")
        .desc("largest byte target (default 16m)").build());
    options.addOption(Option.builder().longOpt("reducers").hasArg().argName("N")
        .desc("reduce tasks of a job that shuffles (default 2)").build());
    return options;
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("trace") || !line.hasOption("out")) {
      throw new UsageException("--trace TRACE and --out DIR are required");
    }
    int nodes = intOption(line, "nodes", 4, 1, 64);
    int traceNodes = intOption(line, "trace-nodes", SwimScaling.FB2009_NODES, 1, 1_000_000);
    int reducers = intOption(line, "reducers", 2, 1, 1000);
    double hours = positiveOption(line, "hours", 1);
    double compression = positiveOption(line, "compress", 1);
    String clusterKind = line.getOptionValue("cluster", "embedded");
    if (!clusterKind.equals("embedded") && !clusterKind.equals("local")) {
      throw new UsageException("--cluster must be embedded or local, got '" + clusterKind
          + "'");
    }
    if (line.hasOption("conf") && line.hasOption("cluster")) {
      throw new UsageException("--conf replays on a running cluster; --cluster starts one:"
          + " give one of them");
    }
    SwimTraces trace;
    try {
      trace = SwimTraces.load(line.getOptionValue("trace"), traceNodes);
    } catch (IOException e) {
      throw new LocusException(e.getMessage(), e);
    }
    double divisor = line.hasOption("divisor") ? positiveOption(line, "divisor", 1)
        : Math.max(1, (double) trace.originalNodes() / nodes);
    SwimScaling scaling;
    try {
      scaling = new SwimScaling(divisor, size(line, "min", 64L << 10),
          size(line, "max", 16L << 20));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    SwimReplayBench bench = new SwimReplayBench(trace, hours, scaling, compression, reducers,
        console.err());
    if (bench.jobs().isEmpty()) {
      throw new UsageException("trace " + trace.name() + " has no job in its first " + hours
          + " h; raise --hours");
    }
    File out = BenchSetup.reportDirectory(line.getOptionValue("out"), console);
    ReplayFile result;
    try (BenchCluster cluster = cluster(line, clusterKind, out, nodes)) {
      result = bench.run(cluster, out);
    }
    console.out().print(result.summary());
    console.out().println("replay: " + new File(out, "replay.json"));
    console.out().println("timeline: " + new File(out, "timeline.svg"));
    return result.jobs().stream().allMatch(j -> j.succeeded()) ? 0 : 1;
  }

  private static BenchCluster cluster(CommandLine line, String kind, File out, int nodes)
      throws Exception {
    if (line.hasOption("conf")) {
      return new ExistingCluster(ClientConfiguration.load(line.getOptionValue("conf")));
    }
    return BenchCluster.factory(kind, new File(out, "cluster"), nodes)
        .start("replay", new Configuration(false));
  }

  private static long size(CommandLine line, String option, long defaultValue)
      throws UsageException {
    if (!line.hasOption(option)) {
      return defaultValue;
    }
    String text = line.getOptionValue(option).trim();
    try {
      return JobArguments.parseSize(text);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new UsageException("--" + option + " needs a whole number of bytes (suffix k, m"
          + " or g allowed), got '" + text + "'");
    }
  }
}
