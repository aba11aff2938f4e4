package org.locus.jobs.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobOption;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.catalog.LocusJob;

/**
 * teravalidate: checks that tera records are sorted across the data files concatenated in
 * name order, and counts them. One map task per file counts out-of-order neighbours inside it
 * and reports its first and last key; one reducer checks the boundaries between files in name
 * order. Output: {@code name \t records=N first=HEX last=HEX disorders=D} per file and
 * {@code total \t records=N disorders=D}. The run fails (problems listed) on any disorder, or
 * when {@code --records N} is given and the count differs.
 */
public final class TeraValidate implements LocusJob {
  /** Counter group of the totals. */
  public static final String COUNTERS = "locus-teravalidate";
  public static final String RECORDS = "RECORDS";
  public static final String DISORDERS = "DISORDERS";

  @Override
  public String name() {
    return "teravalidate";
  }

  @Override
  public String summary() {
    return "check that tera records are globally sorted; fails on disorder";
  }

  @Override
  public String inputKind() {
    return "tera (terasort output)";
  }

  @Override
  public List<JobOption> options() {
    return List.of(JobOption.value("records", "N", "expected number of records (default: any)"));
  }

  @Override
  public void check(JobArguments args) {
    args.longValue("records", -1, 0, Long.MAX_VALUE);
  }

  /** Checks order inside one file; emits (file name, "first last records disorders"). */
  public static class FileOrderMapper extends Mapper<LongWritable, BytesWritable, Text, Text> {
    private final byte[] previous = new byte[TeraRecords.KEY_BYTES];
    private byte[] first;
    private long records;
    private long disorders;

    @Override
    protected void map(LongWritable offset, BytesWritable record, Context context) {
      byte[] bytes = record.getBytes();
      if (first == null) {
        first = java.util.Arrays.copyOf(bytes, TeraRecords.KEY_BYTES);
      } else if (TeraRecords.compareKeys(previous, 0, bytes, 0) > 0) {
        disorders++;
      }
      System.arraycopy(bytes, 0, previous, 0, TeraRecords.KEY_BYTES);
      records++;
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      String summary = records == 0 ? "- - 0 0" : TeraRecords.keyHex(first) + " "
          + TeraRecords.keyHex(previous) + " " + records + " " + disorders;
      context.write(new Text(InputFiles.fileName(context)), new Text(summary));
    }
  }

  /** Walks the files in name order, checking each boundary. */
  public static class BoundaryReducer extends Reducer<Text, Text, Text, Text> {
    private byte[] lastKey;
    private long records;
    private long disorders;

    @Override
    protected void reduce(Text file, Iterable<Text> summaries, Context context)
        throws IOException, InterruptedException {
      for (Text summary : summaries) {
        String[] fields = summary.toString().split(" ");
        long fileRecords = Long.parseLong(fields[2]);
        long fileDisorders = Long.parseLong(fields[3]);
        if (fileRecords > 0) {
          byte[] firstKey = TeraRecords.parseKeyHex(fields[0]);
          if (lastKey != null && TeraRecords.compareKeys(lastKey, 0, firstKey, 0) > 0) {
            fileDisorders++;
          }
          lastKey = TeraRecords.parseKeyHex(fields[1]);
        }
        records += fileRecords;
        disorders += fileDisorders;
        context.write(file, new Text("records=" + fileRecords + " first=" + fields[0]
            + " last=" + fields[1] + " disorders=" + fileDisorders));
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      context.getCounter(COUNTERS, RECORDS).increment(records);
      context.getCounter(COUNTERS, DISORDERS).increment(disorders);
      context.write(new Text("total"), new Text("records=" + records + " disorders="
          + disorders));
    }
  }

  @Override
  public JobResult run(Configuration conf, Path input, Path output, JobArguments args)
      throws IOException, InterruptedException {
    check(args);
    Job job = Job.getInstance(conf, "locus-teravalidate");
    job.setJarByClass(TeraValidate.class);
    TeraInputFormat.configure(job.getConfiguration());
    job.setInputFormatClass(TeraInputFormat.WholeFiles.class);
    job.setMapperClass(FileOrderMapper.class);
    job.setReducerClass(BoundaryReducer.class);
    job.setNumReduceTasks(1);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    JobOutcome outcome = JobOutcome.run(job, false);
    List<String> problems = new ArrayList<>();
    if (outcome.succeeded()) {
      Counters counters = outcome.counters();
      long records = counters.findCounter(COUNTERS, RECORDS).getValue();
      long disorders = counters.findCounter(COUNTERS, DISORDERS).getValue();
      if (disorders > 0) {
        problems.add(input + " is not sorted: " + disorders + " records follow a greater key"
            + " (details in " + output + ")");
      }
      long expected = args.longValue("records", -1, 0, Long.MAX_VALUE);
      if (expected >= 0 && expected != records) {
        problems.add(input + " holds " + records + " records, expected " + expected);
      }
    }
    return new JobResult(List.of(outcome), problems);
  }
}
