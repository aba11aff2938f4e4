package org.locus.jobs.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.SingleMapReduceJob;

/**
 * PUMA ranked-inverted-index: for every word, the files it occurs in ranked by how often it
 * occurs there. Output: {@code word \t count:name,count:name,...}, by count descending then
 * file name ascending. Every token crosses the shuffle.
 */
public final class RankedInvertedIndex extends SingleMapReduceJob {
  @Override
  public String name() {
    return "ranked-inverted-index";
  }

  @Override
  public String summary() {
    return "for every word, its files ranked by the word's count in each";
  }

  @Override
  public String inputKind() {
    return "text";
  }

  /** Counts a word per file and ranks the files. */
  public static class RankedFilesReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text word, Iterable<Text> files, Context context)
        throws IOException, InterruptedException {
      Map<String, Long> counts = new HashMap<>();
      for (Text file : files) {
        counts.merge(file.toString(), 1L, Long::sum);
      }
      List<Map.Entry<String, Long>> ranked = new ArrayList<>(counts.entrySet());
      ranked.sort(Map.Entry.<String, Long>comparingByValue().reversed()
          .thenComparing(Map.Entry.comparingByKey()));
      StringJoiner list = new StringJoiner(",");
      for (Map.Entry<String, Long> entry : ranked) {
        list.add(entry.getValue() + ":" + entry.getKey());
      }
      context.write(word, new Text(list.toString()));
    }
  }

  @Override
  protected void configure(Job job, JobArguments args) {
    job.setMapperClass(InvertedIndex.WordFileMapper.class);
    job.setReducerClass(RankedFilesReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
  }
}
