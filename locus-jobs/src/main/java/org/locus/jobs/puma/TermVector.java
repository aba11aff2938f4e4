package org.locus.jobs.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobOption;
import org.locus.jobs.catalog.SingleMapReduceJob;

/**
 * PUMA term-vector (shuffle-heavy, seed 001 Table 4.7): the most frequent words of each
 * document, a document being one input file. Every token crosses the shuffle (no combiner).
 * Output: {@code name \t word:count,word:count,...}, the file's {@code --top} most frequent
 * words, by count descending then word ascending.
 */
public final class TermVector extends SingleMapReduceJob {
  /** How many words per document to keep. */
  public static final String TOP_KEY = "locus.job.term-vector.top";

  @Override
  public String name() {
    return "term-vector";
  }

  @Override
  public String summary() {
    return "the most frequent words of each input file";
  }

  @Override
  public String inputKind() {
    return "text";
  }

  @Override
  public List<JobOption> options() {
    return List.of(JobOption.value("top", "N", "words kept per file (default 10)"));
  }

  @Override
  public void check(JobArguments args) {
    args.intValue("top", 10, 1, 1_000_000);
  }

  /** Emits (file name, word) for every token. */
  public static class FileWordMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text file = new Text();
    private final Text word = new Text();

    @Override
    protected void setup(Context context) {
      file.set(InputFiles.fileName(context));
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      for (String token : InputFiles.tokens(line.toString())) {
        word.set(token);
        context.write(file, word);
      }
    }
  }

  /** Counts the words of one file and writes the top ones. */
  public static class TopWordsReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text file, Iterable<Text> words, Context context)
        throws IOException, InterruptedException {
      Map<String, Long> counts = new HashMap<>();
      for (Text word : words) {
        counts.merge(word.toString(), 1L, Long::sum);
      }
      List<Map.Entry<String, Long>> ranked = new ArrayList<>(counts.entrySet());
      ranked.sort(Map.Entry.<String, Long>comparingByValue().reversed()
          .thenComparing(Map.Entry.comparingByKey()));
      int top = context.getConfiguration().getInt(TOP_KEY, 10);
      StringJoiner vector = new StringJoiner(",");
      for (Map.Entry<String, Long> entry : ranked.subList(0, Math.min(top, ranked.size()))) {
        vector.add(entry.getKey() + ":" + entry.getValue());
      }
      context.write(file, new Text(vector.toString()));
    }
  }

  @Override
  protected void configure(Job job, JobArguments args) {
    job.getConfiguration().setInt(TOP_KEY, args.intValue("top", 10, 1, 1_000_000));
    job.setMapperClass(FileWordMapper.class);
    job.setReducerClass(TopWordsReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
  }
}
