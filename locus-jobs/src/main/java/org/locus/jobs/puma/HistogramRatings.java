package org.locus.jobs.puma;

import java.io.IOException;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.SingleMapReduceJob;

/**
 * PUMA histogram-ratings (shuffle-light, seed 001 Table 4.6): how many ratings of each value
 * there are. Output: exactly five lines {@code rating \t count} for rating 1 to 5, counted over
 * every {@code userId_rating} pair (a rating nobody gave has count 0).
 */
public final class HistogramRatings extends SingleMapReduceJob {
  @Override
  public String name() {
    return "histogram-ratings";
  }

  @Override
  public String summary() {
    return "number of ratings of each value 1 to 5";
  }

  @Override
  public String inputKind() {
    return "ratings";
  }

  /**
   * Counts ratings in the task and emits (rating, count) for every rating 1..5 at the end, zero
   * counts included, so that every rating reaches the reducer.
   */
  public static class RatingCountMapper
      extends Mapper<LongWritable, Text, IntWritable, LongWritable> {
    private final long[] counts = new long[6];

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException {
      if (line.getLength() == 0) {
        return;
      }
      try {
        for (int rating : MovieRatings.parse(line.toString()).ratings()) {
          counts[rating]++;
        }
      } catch (IllegalArgumentException e) {
        throw new IOException(InputFiles.fileName(context) + " offset " + offset + ": "
            + e.getMessage());
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      for (int rating = 1; rating <= 5; rating++) {
        context.write(new IntWritable(rating), new LongWritable(counts[rating]));
      }
    }
  }

  @Override
  protected void configure(Job job, JobArguments args) {
    job.setMapperClass(RatingCountMapper.class);
    job.setCombinerClass(LongSumReducer.class);
    job.setReducerClass(LongSumReducer.class);
    job.setNumReduceTasks(1);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(LongWritable.class);
  }
}
