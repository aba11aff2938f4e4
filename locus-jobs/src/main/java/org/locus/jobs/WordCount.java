package org.locus.jobs;

import java.io.IOException;
import java.util.StringTokenizer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Counts how often each whitespace-separated token occurs. Output: {@code token \t count},
 * sorted by token within each reducer's part file.
 *
 * <p>Set {@value #COMBINER_KEY} to false to run without a combiner: then every token occurrence
 * crosses the shuffle, which is what makes the job network-bound (seed 000 §3.5 ran WordCount
 * that way to expose shuffle cost).
 */
public final class WordCount {
  /** Whether the job runs the reducer as a combiner; default true. */
  public static final String COMBINER_KEY = "locus.job.wordcount.combiner";

  private WordCount() {
  }

  /** Emits (token, 1) for every token of a line. */
  public static class TokenMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);
    private final Text token = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      StringTokenizer tokens = new StringTokenizer(line.toString());
      while (tokens.hasMoreTokens()) {
        token.set(tokens.nextToken());
        context.write(token, ONE);
      }
    }
  }

  /** Sums the counts of one token. */
  public static class SumReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
    private final IntWritable total = new IntWritable();

    @Override
    protected void reduce(Text token, Iterable<IntWritable> counts, Context context)
        throws IOException, InterruptedException {
      int sum = 0;
      for (IntWritable count : counts) {
        sum += count.get();
      }
      total.set(sum);
      context.write(token, total);
    }
  }

  /** Creates (does not submit) a WordCount job over {@code input} writing to {@code output}. */
  public static Job create(Configuration conf, Path input, Path output, int reducers)
      throws IOException {
    Job job = Job.getInstance(conf, "locus-wordcount");
    job.setJarByClass(WordCount.class);
    job.setMapperClass(TokenMapper.class);
    if (conf.getBoolean(COMBINER_KEY, true)) {
      job.setCombinerClass(SumReducer.class);
    }
    job.setReducerClass(SumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }
}
