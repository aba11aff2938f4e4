package org.locus.jobs.puma;

import java.io.IOException;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.locus.jobs.WordCount;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.SingleMapReduceJob;

/**
 * PUMA sequence-count: how often each sequence of three consecutive words of one input line
 * occurs. Output: {@code w1 w2 w3 \t count}, words joined by single spaces.
 */
public final class SequenceCount extends SingleMapReduceJob {
  @Override
  public String name() {
    return "sequence-count";
  }

  @Override
  public String summary() {
    return "count each sequence of three consecutive words within a line";
  }

  @Override
  public String inputKind() {
    return "text";
  }

  /** Emits (w1 w2 w3, 1) for every three consecutive tokens of a line. */
  public static class TrigramMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);
    private final Text sequence = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] words = InputFiles.tokens(line.toString());
      for (int i = 0; i + 2 < words.length; i++) {
        sequence.set(words[i] + " " + words[i + 1] + " " + words[i + 2]);
        context.write(sequence, ONE);
      }
    }
  }

  @Override
  protected void configure(Job job, JobArguments args) {
    job.setMapperClass(TrigramMapper.class);
    job.setCombinerClass(WordCount.SumReducer.class);
    job.setReducerClass(WordCount.SumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
  }
}
