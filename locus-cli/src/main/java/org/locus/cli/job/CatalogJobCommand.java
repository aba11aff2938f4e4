package org.locus.cli.job;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.locus.bench.report.TextTable;
import org.locus.boost.scheduling.SuperlocalJobs;
import org.locus.boost.scheduling.SuperlocalTaskPlacement;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.energy.scheduling.BackupLocalTaskPlacement;
import org.locus.energy.scheduling.FastNodeJobs;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobOption;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.catalog.LocusJob;
import org.locus.kat.mapreduce.KeyAwareJobs;
import org.locus.kat.mapreduce.ShuffleLocality;
import org.locus.kat.placement.PlacementMap;

/**
 * {@code locus job NAME} for any job of the {@link org.locus.jobs.catalog.JobCatalog}: the
 * common options ({@code --input}, {@code --output}, {@code --reducers}, {@code --conf}, and
 * {@code --kat} for jobs reading text lines) plus the job's own; checks options and paths before
 * submitting, runs the job(s), prints one line per MapReduce job and any problem found.
 */
final class CatalogJobCommand extends OptionsCommand {
  private final LocusJob job;

  CatalogJobCommand(LocusJob job) {
    super("locus job " + job.name());
    this.job = job;
  }

  @Override
  public String name() {
    return job.name();
  }

  @Override
  public String summary() {
    return job.summary() + " (input: " + job.inputKind() + ")";
  }

  @Override
  protected String usageArguments() {
    StringBuilder usage = new StringBuilder(job.readsInput() ? "--input PATH " : "");
    usage.append("--output PATH [--reducers N]");
    for (JobOption option : job.options()) {
      usage.append(" [--").append(option.name())
          .append(option.isFlag() ? "" : " " + option.argName()).append(']');
    }
    return usage + (job.readsTextLines() ? " [--kat]" : "")
        + (job.readsInput() ? " [--superlocal | --fast-node]" : "") + " [--conf DIR]";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    if (job.readsInput()) {
      options.addOption(Option.builder().longOpt("input").hasArg().argName("PATH")
          .desc("input file or directory on the cluster; required").build());
    }
    options.addOption(Option.builder().longOpt("output").hasArg().argName("PATH")
        .desc("output directory on the cluster, must not exist; required").build());
    options.addOption(Option.builder().longOpt("reducers").hasArg().argName("N")
        .desc("number of reduce tasks (default 2)").build());
    if (job.readsTextLines()) {
      options.addOption(Option.builder().longOpt("kat")
          .desc("run key-aware: --input is a KAT dataset ('locus kat import'); maps run on the"
              + " data's owners, one reducer per owner, each on its owner's host").build());
    }
    if (job.readsInput()) {
      options.addOption(Option.builder().longOpt("superlocal")
          .desc("BoostDFS: run under the Locus AM, each map first on the host holding its input"
              + " on REPLICATED storage ('locus boost set-policy'), else as stock; prints the"
              + " maps that ran superlocal").build());
      options.addOption(Option.builder().longOpt("fast-node")
          .desc("energy-efficient HDFS: run under the Locus AM, a host running the maps whose"
              + " primary it holds before those it holds only on a backup; prints the maps that"
              + " ran backup-local").build());
    }
    options.addOption(ClientConfiguration.option());
    for (JobOption option : job.options()) {
      Option.Builder builder = Option.builder().longOpt(option.name())
          .desc(option.description());
      if (!option.isFlag()) {
        builder.hasArg().argName(option.argName());
      }
      options.addOption(builder.build());
    }
    return options;
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (job.readsInput() && !line.hasOption("input")) {
      throw new UsageException("--input PATH is required");
    }
    if (!line.hasOption("output")) {
      throw new UsageException("--output PATH is required");
    }
    int reducers = intOption(line, "reducers", 2, 1, 10_000);
    Map<String, String> values = new HashMap<>();
    for (JobOption option : job.options()) {
      if (line.hasOption(option.name())) {
        values.put(option.name(), option.isFlag() ? "" : line.getOptionValue(option.name()));
      }
    }
    Path input = job.readsInput() ? new Path(line.getOptionValue("input")) : null;
    boolean superlocal = line.hasOption("superlocal");
    boolean fastNode = line.hasOption("fast-node");
    List<String> placements = Stream.of("kat", "superlocal", "fast-node")
        .filter(line::hasOption).map(o -> "--" + o).toList();
    if (placements.size() > 1) {
      throw new UsageException(String.join(" and ", placements)
          + " each place the job's tasks; choose one");
    }
    JobArguments args = new JobArguments(values, reducers,
        line.hasOption("kat") ? j -> keyAware(j, input)
            : superlocal ? CatalogJobCommand::superlocal
            : fastNode ? CatalogJobCommand::fastNode : j -> j);
    try {
      job.check(args);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    Path output = new Path(line.getOptionValue("output"));
    checkPaths(conf, input, output);
    // --kat, --superlocal and --fast-node run the job under the Locus AM, on YARN, whatever the
    // cluster's own framework name says.
    ResourceManagerCheck.requireReachable(conf, !placements.isEmpty());
    JobResult result = job.run(conf, input, output, args);
    TextTable table = new TextTable("JOB", "RESULT", "WALL", "MAPS", "DATA-LOCAL", "RACK-LOCAL",
        "SHUFFLE", "CROSS-HOST");
    for (JobOutcome outcome : result.jobs()) {
      table.row(outcome.name(), outcome.succeeded() ? "ok" : "FAILED",
          TextTable.seconds(outcome.wallMillis()), outcome.totalMaps(), outcome.dataLocalMaps(),
          outcome.rackLocalMaps(), TextTable.bytes(outcome.shuffleBytes()),
          crossHost(outcome));
    }
    table.print(console.out(), "");
    if (superlocal) {
      for (JobOutcome outcome : result.jobs()) {
        console.out().printf("%s: %d of %d maps ran superlocal (on the host of their REPLICATED"
            + " copy)%n", outcome.name(),
            SuperlocalTaskPlacement.SUPERLOCAL.counterIn(outcome.counters()).getValue(),
            outcome.totalMaps());
      }
    }
    if (fastNode) {
      for (JobOutcome outcome : result.jobs()) {
        console.out().printf("%s: %d of %d maps ran backup-local (on a host holding their input"
            + " only on a backup volume)%n", outcome.name(),
            BackupLocalTaskPlacement.BACKUP_LOCAL.counterIn(outcome.counters()).getValue(),
            outcome.totalMaps());
      }
    }
    console.out().println("output: " + output);
    for (String problem : result.problems()) {
      console.err().println("locus job " + job.name() + ": " + problem);
    }
    return result.passed() ? 0 : 1;
  }

  /** Makes a job key-aware: {@code input} must be a KAT dataset. */
  private static Job keyAware(Job job, Path input) throws IOException {
    FileSystem fs = input.getFileSystem(job.getConfiguration());
    KeyAwareJobs.configure(job, input, PlacementMap.read(fs, input));
    return job;
  }

  /** Puts a job under the Locus AM with BoostDFS's superlocal map placement. */
  private static Job superlocal(Job job) {
    SuperlocalJobs.configure(job.getConfiguration());
    return job;
  }

  /** Puts a job under the Locus AM with energy-efficient HDFS's backup-local level. */
  private static Job fastNode(Job job) {
    FastNodeJobs.configure(job.getConfiguration());
    return job;
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
    if (input != null) {
      FileSystem fs = input.getFileSystem(conf);
      if (!fs.exists(input)) {
        throw new LocusException("input " + fs.makeQualified(input) + " does not exist");
      }
    }
    FileSystem outFs = output.getFileSystem(conf);
    if (outFs.exists(output)) {
      throw new LocusException("output " + outFs.makeQualified(output)
          + " already exists; remove it or choose another --output");
    }
  }
}
