package org.locus.jobs.puma;

import java.io.IOException;
import java.util.TreeSet;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.SingleMapReduceJob;

/**
 * PUMA self-join (shuffle-heavy, seed 001 Table 4.7): the candidate-generation step of
 * association-rule mining. Input lines are k-itemsets {@code e1,e2,...,ek} (whole numbers,
 * ascending); two itemsets sharing their first k-1 elements join into the (k+1)-itemset
 * {@code e1,...,e(k-1),a,b} with {@code a < b} their last elements. Output: one candidate per
 * line, {@code e1,...,e(k-1),a,b}.
 */
public final class SelfJoin extends SingleMapReduceJob {
  @Override
  public String name() {
    return "self-join";
  }

  @Override
  public String summary() {
    return "join k-itemsets sharing k-1 leading elements into (k+1)-itemset candidates";
  }

  @Override
  public String inputKind() {
    return "itemsets";
  }

  /** Emits (first k-1 elements, last element). */
  public static class PrefixMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private final Text prefix = new Text();
    private final LongWritable last = new LongWritable();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString().strip();
      if (text.isEmpty()) {
        return;
      }
      int comma = text.lastIndexOf(',');
      prefix.set(comma < 0 ? "" : text.substring(0, comma));
      try {
        last.set(Long.parseLong(text.substring(comma + 1).strip()));
      } catch (NumberFormatException e) {
        throw new IOException("self-join input line at offset " + offset + " of "
            + InputFiles.fileName(context) + " is not a comma-separated list of whole numbers: '"
            + text + "'");
      }
      context.write(prefix, last);
    }
  }

  /** Writes every pair of distinct last elements of one prefix. */
  public static class PairsReducer extends Reducer<Text, LongWritable, Text, NullWritable> {
    private final Text candidate = new Text();

    @Override
    protected void reduce(Text prefix, Iterable<LongWritable> lasts, Context context)
        throws IOException, InterruptedException {
      TreeSet<Long> distinct = new TreeSet<>();
      for (LongWritable last : lasts) {
        distinct.add(last.get());
      }
      Long[] sorted = distinct.toArray(new Long[0]);
      String head = prefix.getLength() == 0 ? "" : prefix + ",";
      for (int i = 0; i < sorted.length; i++) {
        for (int j = i + 1; j < sorted.length; j++) {
          candidate.set(head + sorted[i] + "," + sorted[j]);
          context.write(candidate, NullWritable.get());
        }
      }
    }
  }

  @Override
  protected void configure(Job job, JobArguments args) {
    job.setMapperClass(PrefixMapper.class);
    job.setReducerClass(PairsReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
  }
}
