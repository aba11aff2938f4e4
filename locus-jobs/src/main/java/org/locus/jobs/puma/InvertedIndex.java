package org.locus.jobs.puma;

import java.io.IOException;
import java.util.TreeSet;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.SingleMapReduceJob;

/**
 * PUMA inverted-index (shuffle-heavy, seed 001 Table 4.7): for every word, the files it occurs
 * in. Output: {@code word \t name1,name2,...}, the base names of the input files containing the
 * word, sorted and unique. Words are whitespace-separated tokens, case kept.
 */
public final class InvertedIndex extends SingleMapReduceJob {
  @Override
  public String name() {
    return "inverted-index";
  }

  @Override
  public String summary() {
    return "for every word, the sorted names of the input files containing it";
  }

  @Override
  public String inputKind() {
    return "text";
  }

  /** Emits (word, file name) for every token. */
  public static class WordFileMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text word = new Text();
    private final Text file = new Text();

    @Override
    protected void setup(Context context) {
      file.set(InputFiles.fileName(context));
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      for (String token : InputFiles.tokens(line.toString())) {
        word.set(token);
        context.write(word, file);
      }
    }
  }

  /** Drops repeated file names of a word map-side; keeps the (word, file) shape. */
  public static class DistinctFilesCombiner extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text word, Iterable<Text> files, Context context)
        throws IOException, InterruptedException {
      TreeSet<String> distinct = new TreeSet<>();
      for (Text file : files) {
        distinct.add(file.toString());
      }
      Text out = new Text();
      for (String file : distinct) {
        out.set(file);
        context.write(word, out);
      }
    }
  }

  /** Writes the sorted distinct file names of a word. */
  public static class FileListReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text word, Iterable<Text> files, Context context)
        throws IOException, InterruptedException {
      TreeSet<String> distinct = new TreeSet<>();
      for (Text file : files) {
        distinct.add(file.toString());
      }
      context.write(word, new Text(String.join(",", distinct)));
    }
  }

  @Override
  protected void configure(Job job, JobArguments args) {
    job.setMapperClass(WordFileMapper.class);
    job.setCombinerClass(DistinctFilesCombiner.class);
    job.setReducerClass(FileListReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
  }
}
