package org.locus.cli.job;

import java.io.IOException;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.cli.ClientConfiguration;
import org.locus.cli.Console;
import org.locus.cli.LocusException;
import org.locus.cli.OptionsCommand;
import org.locus.cli.TextTable;
import org.locus.cli.UsageException;
import org.apache.hadoop.mapreduce.Job;
import org.locus.jobs.JobOutcome;
import org.locus.kat.mapreduce.KeyAwareJobs;
import org.locus.kat.mapreduce.ShuffleLocality;
import org.locus.kat.placement.PlacementMap;

/**
 * Common shape of {@code locus job NAME}: {@code --input}, {@code --output}, {@code --reducers},
 * {@code --conf}; checks paths before submitting, runs the job(s), prints one line per job.
 */
abstract class ExampleJobCommand extends OptionsCommand {
  ExampleJobCommand(String path) {
    super(path);
  }

  /** Adds the job's own options. */
  protected abstract void addJobOptions(Options options);

  /**
   * Makes {@code job} key-aware when {@code --kat} was given: {@code input} must be a KAT
   * dataset. Without {@code --kat} the job is returned unchanged (stock placement).
   */
  protected static Job keyAwareIfAsked(Job job, CommandLine line, Path input)
      throws IOException {
    if (line.hasOption("kat")) {
      FileSystem fs = input.getFileSystem(job.getConfiguration());
      KeyAwareJobs.configure(job, input, PlacementMap.read(fs, input));
    }
    return job;
  }

  /** Checks the job's own options before the cluster is contacted. */
  protected void checkOptions(CommandLine line) throws UsageException {
  }

  /** Runs the job(s) and returns their outcomes in order. */
  protected abstract List<JobOutcome> runJobs(Configuration conf, CommandLine line, Path input,
      Path output, int reducers) throws Exception;

  @Override
  protected final Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("input").hasArg().argName("PATH")
        .desc("input file or directory on the cluster; required").build());
    options.addOption(Option.builder().longOpt("output").hasArg().argName("PATH")
        .desc("output directory on the cluster, must not exist; required").build());
    options.addOption(Option.builder().longOpt("reducers").hasArg().argName("N")
        .desc("number of reduce tasks (default 2)").build());
    options.addOption(Option.builder().longOpt("kat")
        .desc("run key-aware: --input is a KAT dataset ('locus kat import'); maps run on the"
            + " data's owners, one reducer per owner, each on its owner's host").build());
    options.addOption(ClientConfiguration.option());
    addJobOptions(options);
    return options;
  }

  @Override
  protected final int execute(CommandLine line, Console console) throws Exception {
    for (String required : new String[] {"input", "output"}) {
      if (!line.hasOption(required)) {
        throw new UsageException("--" + required + " PATH is required");
      }
    }
    int reducers = intOption(line, "reducers", 2, 1, 10_000);
    checkOptions(line);
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    Path input = new Path(line.getOptionValue("input"));
    Path output = new Path(line.getOptionValue("output"));
    checkPaths(conf, input, output);
    List<JobOutcome> outcomes = runJobs(conf, line, input, output, reducers);
    TextTable table = new TextTable("JOB", "RESULT", "WALL", "MAPS", "DATA-LOCAL", "RACK-LOCAL",
        "SHUFFLE", "CROSS-HOST");
    boolean ok = true;
    for (JobOutcome outcome : outcomes) {
      ok &= outcome.succeeded();
      table.row(outcome.name(), outcome.succeeded() ? "ok" : "FAILED",
          TextTable.seconds(outcome.wallMillis()), outcome.totalMaps(), outcome.dataLocalMaps(),
          outcome.rackLocalMaps(), TextTable.bytes(outcome.shuffleBytes()),
          crossHost(outcome));
    }
    table.print(console.out(), "");
    console.out().println("output: " + output);
    return ok ? 0 : 1;
  }

  /** Cross-host shuffle bytes, when the cluster counts them (HostAttributingShuffle). */
  static String crossHost(JobOutcome outcome) {
    long fetches = outcome.counters().findCounter(ShuffleLocality.SAME_HOST_FETCHES).getValue()
        + outcome.counters().findCounter(ShuffleLocality.CROSS_HOST_FETCHES).getValue();
    return fetches == 0 ? "-" : TextTable.bytes(
        outcome.counters().findCounter(ShuffleLocality.CROSS_HOST_BYTES).getValue());
  }

  private static void checkPaths(Configuration conf, Path input, Path output)
      throws IOException, LocusException {
    FileSystem fs = input.getFileSystem(conf);
    if (!fs.exists(input)) {
      throw new LocusException("input " + fs.makeQualified(input) + " does not exist");
    }
    if (output.getFileSystem(conf).exists(output)) {
      throw new LocusException("output " + fs.makeQualified(output)
          + " already exists; remove it or choose another --output");
    }
  }
}
