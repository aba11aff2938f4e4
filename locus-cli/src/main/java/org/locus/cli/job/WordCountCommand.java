package org.locus.cli.job;

import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;

/** {@code locus job wordcount}. */
final class WordCountCommand extends ExampleJobCommand {
  WordCountCommand() {
    super("locus job wordcount");
  }

  @Override
  public String name() {
    return "wordcount";
  }

  @Override
  public String summary() {
    return "count each whitespace-separated word of the input";
  }

  @Override
  protected String usageArguments() {
    return "--input PATH --output PATH [--reducers N] [--no-combiner] [--kat] [--conf DIR]";
  }

  @Override
  protected void addJobOptions(Options options) {
    options.addOption(Option.builder().longOpt("no-combiner")
        .desc("shuffle every word occurrence (no map-side combining): a network-bound job")
        .build());
  }

  @Override
  protected List<JobOutcome> runJobs(Configuration conf, CommandLine line, Path input,
      Path output, int reducers) throws Exception {
    conf.setBoolean(WordCount.COMBINER_KEY, !line.hasOption("no-combiner"));
    return List.of(JobOutcome.run(
        keyAwareIfAsked(WordCount.create(conf, input, output, reducers), line, input), false));
  }
}
