package org.locus.jobs.puma;

import java.io.IOException;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobOption;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.catalog.LocusJob;
import org.locus.jobs.generate.FileIndexInputFormat;

/**
 * teragen: a map-only job writing {@code --size} bytes of tera records ({@link TeraRecords}),
 * rounded down to whole records, in {@code --maps} part files; map {@code i} writes a
 * contiguous range of rows. Same rows and seed give the same bytes as
 * {@code locus generate tera}.
 */
public final class TeraGen implements LocusJob {
  static final String ROWS_KEY = "locus.job.teragen.rows";
  static final String SEED_KEY = "locus.job.teragen.seed";

  @Override
  public String name() {
    return "teragen";
  }

  @Override
  public String summary() {
    return "write SIZE bytes of 100-byte tera records in parallel map tasks";
  }

  @Override
  public String inputKind() {
    return "none (writes tera records)";
  }

  @Override
  public boolean readsInput() {
    return false;
  }

  @Override
  public List<JobOption> options() {
    return List.of(
        JobOption.value("size", "BYTES", "bytes to write, e.g. 64m; required"),
        JobOption.value("maps", "N", "map tasks, one part file each (default 2)"),
        JobOption.value("seed", "N", "random seed (default 42)"));
  }

  @Override
  public void check(JobArguments args) {
    if (!args.names().contains("size")) {
      throw new IllegalArgumentException("--size BYTES is required");
    }
    args.longValue("size", 0, TeraRecords.RECORD_BYTES, Long.MAX_VALUE);
    args.intValue("maps", 2, 1, 100_000);
    args.longValue("seed", 42, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /** Writes the row range of its split. */
  public static class RowsMapper
      extends Mapper<IntWritable, NullWritable, BytesWritable, BytesWritable> {
    @Override
    protected void map(IntWritable index, NullWritable none, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      long rows = conf.getLong(ROWS_KEY, 0);
      int maps = conf.getInt(FileIndexInputFormat.FILES, 1);
      long seed = conf.getLong(SEED_KEY, 42);
      long first = rows * index.get() / maps;
      long end = rows * (index.get() + 1) / maps;
      byte[] record = new byte[TeraRecords.RECORD_BYTES];
      BytesWritable key = new BytesWritable();
      BytesWritable value = new BytesWritable();
      for (long row = first; row < end; row++) {
        TeraRecords.fill(seed, row, record);
        key.set(record, 0, TeraRecords.KEY_BYTES);
        value.set(record, TeraRecords.KEY_BYTES, TeraRecords.RECORD_BYTES - TeraRecords.KEY_BYTES);
        context.write(key, value);
      }
    }
  }

  @Override
  public JobResult run(Configuration conf, Path input, Path output, JobArguments args)
      throws IOException, InterruptedException {
    check(args);
    Job job = Job.getInstance(conf, "locus-teragen");
    job.setJarByClass(TeraGen.class);
    Configuration jobConf = job.getConfiguration();
    jobConf.setLong(ROWS_KEY,
        args.longValue("size", 0, 1, Long.MAX_VALUE) / TeraRecords.RECORD_BYTES);
    jobConf.setInt(FileIndexInputFormat.FILES, args.intValue("maps", 2, 1, 100_000));
    jobConf.setLong(SEED_KEY, args.longValue("seed", 42, Long.MIN_VALUE, Long.MAX_VALUE));
    job.setInputFormatClass(FileIndexInputFormat.class);
    job.setMapperClass(RowsMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    job.setOutputFormatClass(RawBytesOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    return JobResult.of(JobOutcome.run(job, false));
  }
}
