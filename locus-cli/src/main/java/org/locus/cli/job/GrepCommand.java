package org.locus.cli.job;

import java.util.List;
import java.util.UUID;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.locus.cli.UsageException;
import org.locus.jobs.Grep;
import org.locus.jobs.JobOutcome;

/** {@code locus job grep}: search job, then sort job. */
final class GrepCommand extends ExampleJobCommand {
  GrepCommand() {
    super("locus job grep");
  }

  @Override
  public String name() {
    return "grep";
  }

  @Override
  public String summary() {
    return "count the strings matching a regular expression, most frequent first";
  }

  @Override
  protected String usageArguments() {
    return "--input PATH --output PATH --regex REGEX [--group N] [--reducers N] [--kat]"
        + " [--conf DIR]";
  }

  @Override
  protected void addJobOptions(Options options) {
    options.addOption(Option.builder().longOpt("regex").hasArg().argName("REGEX")
        .desc("Java regular expression; required").build());
    options.addOption(Option.builder().longOpt("group").hasArg().argName("N")
        .desc("capture group that is the match (default 0, the whole match)").build());
  }

  @Override
  protected void checkOptions(CommandLine line) throws UsageException {
    if (!line.hasOption("regex")) {
      throw new UsageException("--regex REGEX is required");
    }
    try {
      Grep.compile(line.getOptionValue("regex"));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    intOption(line, "group", 0, 0, 99);
  }

  @Override
  protected List<JobOutcome> runJobs(Configuration conf, CommandLine line, Path input,
      Path output, int reducers) throws Exception {
    String regex = line.getOptionValue("regex");
    conf.setInt(Grep.GROUP_KEY, intOption(line, "group", 0, 0, 99));
    Path counts = new Path("/tmp/locus-grep-" + UUID.randomUUID());
    try {
      JobOutcome search = JobOutcome.run(keyAwareIfAsked(
          Grep.createSearch(conf, input, counts, regex, reducers), line, input), false);
      if (!search.succeeded()) {
        return List.of(search);
      }
      return List.of(search, JobOutcome.run(Grep.createSort(conf, counts, output), false));
    } finally {
      counts.getFileSystem(conf).delete(counts, true);
    }
  }
}
