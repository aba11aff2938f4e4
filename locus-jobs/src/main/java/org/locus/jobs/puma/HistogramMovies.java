package org.locus.jobs.puma;

import java.io.IOException;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.SingleMapReduceJob;

/**
 * PUMA histogram-movies (shuffle-light, seed 001 Table 4.6): movies binned by their average
 * rating in half-star bins. Output: {@code bin \t count}, the bin being the average rounded
 * down to a multiple of 0.5 and printed with one decimal ({@code 1.0}, {@code 1.5}, ...,
 * {@code 5.0}); only bins holding a movie appear.
 */
public final class HistogramMovies extends SingleMapReduceJob {
  @Override
  public String name() {
    return "histogram-movies";
  }

  @Override
  public String summary() {
    return "number of movies per half-star bin of their average rating";
  }

  @Override
  public String inputKind() {
    return "ratings";
  }

  /** @return the half-star bin of an average rating, e.g. {@code 3.5} */
  public static String bin(double average) {
    return String.format("%.1f", Math.floor(average * 2) / 2);
  }

  /** Emits (bin, 1) per movie line. */
  public static class BinMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text bin = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      if (line.getLength() == 0) {
        return;
      }
      try {
        bin.set(bin(MovieRatings.parse(line.toString()).average()));
      } catch (IllegalArgumentException e) {
        throw new IOException(InputFiles.fileName(context) + " offset " + offset + ": "
            + e.getMessage());
      }
      context.write(bin, ONE);
    }
  }

  @Override
  protected void configure(Job job, JobArguments args) {
    job.setMapperClass(BinMapper.class);
    job.setCombinerClass(LongSumReducer.class);
    job.setReducerClass(LongSumReducer.class);
    job.setNumReduceTasks(1);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
  }
}
