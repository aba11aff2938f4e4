package org.locus.jobs.catalog;

import java.util.List;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.jobs.Grep;
import org.locus.jobs.JobOutcome;

/** {@link Grep} in the catalog: search job, then sort job. Output: {@code count \t match}. */
final class GrepJob implements LocusJob {
  @Override
  public String name() {
    return "grep";
  }

  @Override
  public String summary() {
    return "count the strings matching a regular expression, most frequent first";
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
    return List.of(
        JobOption.value("regex", "REGEX", "Java regular expression; required"),
        JobOption.value("group", "N", "capture group that is the match (default 0, the whole"
            + " match)"));
  }

  @Override
  public void check(JobArguments args) {
    String regex = args.string("regex", null);
    if (regex == null) {
      throw new IllegalArgumentException("--regex REGEX is required");
    }
    Grep.compile(regex);
    args.intValue("group", 0, 0, 99);
  }

  @Override
  public JobResult run(Configuration conf, Path input, Path output, JobArguments args)
      throws Exception {
    check(args);
    Configuration jobConf = new Configuration(conf);
    jobConf.setInt(Grep.GROUP_KEY, args.intValue("group", 0, 0, 99));
    FileSystem fs = output.getFileSystem(conf);
    Path qualified = fs.makeQualified(output);
    Path counts = new Path(qualified.getParent(), qualified.getName() + "-grep-counts-"
        + UUID.randomUUID());
    try {
      JobOutcome search = JobOutcome.run(args.prepareInputJob(Grep.createSearch(jobConf, input,
          counts, args.string("regex", null), args.reducers())), false);
      if (!search.succeeded()) {
        return JobResult.of(search);
      }
      return JobResult.of(search, JobOutcome.run(Grep.createSort(jobConf, counts, output),
          false));
    } finally {
      fs.delete(counts, true);
    }
  }
}
