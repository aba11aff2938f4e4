package org.locus.jobs.catalog;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.locus.jobs.JobOutcome;

/**
 * Base of a catalog job that is one MapReduce job over its input: subclasses set mapper,
 * reducer, types and formats in {@link #configure}; this class names the job
 * {@code locus-NAME}, sets the jar, paths and reducer count, and runs it.
 */
public abstract class SingleMapReduceJob implements LocusJob {
  /**
   * Sets the job's classes and any configuration from {@code args}. The job already has its
   * input and output paths and {@code args.reducers()} reduce tasks; it may change the latter.
   */
  protected abstract void configure(Job job, JobArguments args) throws IOException;

  /** Creates (does not submit) the job. */
  public Job create(Configuration conf, Path input, Path output, JobArguments args)
      throws IOException {
    check(args);
    Job job = Job.getInstance(conf, "locus-" + name());
    job.setJarByClass(getClass());
    job.setNumReduceTasks(args.reducers());
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    configure(job, args);
    return job;
  }

  @Override
  public JobResult run(Configuration conf, Path input, Path output, JobArguments args)
      throws IOException, InterruptedException {
    return JobResult.of(JobOutcome.run(args.prepareInputJob(create(conf, input, output, args)),
        false));
  }
}
