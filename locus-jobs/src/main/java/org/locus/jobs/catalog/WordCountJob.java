package org.locus.jobs.catalog;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;

/** {@link WordCount} in the catalog. Output: {@code word \t count}. */
final class WordCountJob implements LocusJob {
  @Override
  public String name() {
    return "wordcount";
  }

  @Override
  public String summary() {
    return "count each whitespace-separated word of the input";
  }

  @Override
  public String inputKind() {
    return "text";
  }

  @Override
  public boolean readsTextLines() {
    return true;
  }

  @Override
  public List<JobOption> options() {
    return List.of(JobOption.flag("no-combiner",
        "shuffle every word occurrence (no map-side combining): a network-bound job"));
  }

  @Override
  public JobResult run(Configuration conf, Path input, Path output, JobArguments args)
      throws Exception {
    Configuration jobConf = new Configuration(conf);
    jobConf.setBoolean(WordCount.COMBINER_KEY, !args.flag("no-combiner"));
    return JobResult.of(JobOutcome.run(
        args.prepareInputJob(WordCount.create(jobConf, input, output, args.reducers())), false));
  }
}
