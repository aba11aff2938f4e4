package org.locus.jobs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.InverseMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/**
 * Counts the strings that match a regular expression, in two jobs like the classic example:
 * a <em>search</em> job emits (match, count) for every match of the pattern (or of one capture
 * group), then a <em>sort</em> job orders matches by count, most frequent first.
 * Final output: {@code count \t match}.
 */
public final class Grep {
  /** The regular expression (Java syntax). */
  public static final String PATTERN_KEY = "locus.job.grep.pattern";
  /** Which capture group is the match; 0 (default) is the whole match. */
  public static final String GROUP_KEY = "locus.job.grep.group";

  private Grep() {
  }

  /**
   * Checks a pattern before any job is built.
   *
   * @throws IllegalArgumentException naming the pattern and the error position
   */
  public static Pattern compile(String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("invalid regular expression '" + regex + "': "
          + e.getDescription() + " near index " + e.getIndex(), e);
    }
  }

  /** Emits (match, 1) for every match in a line. */
  public static class MatchMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private Pattern pattern;
    private int group;
    private final Text match = new Text();

    @Override
    protected void setup(Context context) {
      pattern = compile(context.getConfiguration().get(PATTERN_KEY));
      group = context.getConfiguration().getInt(GROUP_KEY, 0);
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      Matcher matcher = pattern.matcher(line.toString());
      while (matcher.find()) {
        match.set(matcher.group(group));
        context.write(match, ONE);
      }
    }
  }

  /**
   * Creates the search job: (match, count) pairs in a SequenceFile under {@code counts}.
   * Run it, then {@link #createSort}.
   */
  public static Job createSearch(Configuration conf, Path input, Path counts, String regex,
      int reducers) throws IOException {
    compile(regex);
    Job job = Job.getInstance(conf, "locus-grep-search");
    job.getConfiguration().set(PATTERN_KEY, regex);
    job.setJarByClass(Grep.class);
    job.setMapperClass(MatchMapper.class);
    job.setCombinerClass(LongSumReducer.class);
    job.setReducerClass(LongSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    job.setOutputFormatClass(SequenceFileOutputFormat.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, counts);
    return job;
  }

  /**
   * Writes the matches of one count in lexical order, so that the output does not depend on the
   * order in which map outputs reached the reducer.
   */
  public static class MatchesInOrderReducer
      extends Reducer<LongWritable, Text, LongWritable, Text> {
    @Override
    protected void reduce(LongWritable count, Iterable<Text> matches, Context context)
        throws IOException, InterruptedException {
      List<String> sorted = new ArrayList<>();
      for (Text match : matches) {
        sorted.add(match.toString());
      }
      Collections.sort(sorted);
      Text out = new Text();
      for (String match : sorted) {
        out.set(match);
        context.write(count, out);
      }
    }
  }

  /** Creates the sort job: reads {@code counts}, writes {@code count \t match} to output. */
  public static Job createSort(Configuration conf, Path counts, Path output) throws IOException {
    Job job = Job.getInstance(conf, "locus-grep-sort");
    job.setJarByClass(Grep.class);
    job.setInputFormatClass(SequenceFileInputFormat.class);
    job.setMapperClass(InverseMapper.class);
    job.setReducerClass(MatchesInOrderReducer.class);
    job.setNumReduceTasks(1);
    job.setSortComparatorClass(LongWritable.DecreasingComparator.class);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, counts);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }
}
