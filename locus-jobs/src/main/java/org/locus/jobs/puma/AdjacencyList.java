package org.locus.jobs.puma;

import java.io.IOException;
import java.util.StringJoiner;
import java.util.TreeSet;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.SingleMapReduceJob;

/**
 * PUMA adjacency-list (shuffle-heavy, seed 001 Table 4.7): the in- and out-neighbours of every
 * node of a directed graph given as an edge list ({@code src dst} per line, whole numbers,
 * whitespace-separated). Output: {@code node \t in=a,b,...;out=c,d,...}, neighbours numerically
 * sorted and unique; nodes in numeric order within each part file.
 */
public final class AdjacencyList extends SingleMapReduceJob {
  @Override
  public String name() {
    return "adjacency-list";
  }

  @Override
  public String summary() {
    return "in- and out-neighbours of every node of an edge list";
  }

  @Override
  public String inputKind() {
    return "edges";
  }

  /** Emits (src, "o dst") and (dst, "i src") for an edge. */
  public static class EdgeMapper extends Mapper<LongWritable, Text, LongWritable, Text> {
    private final LongWritable node = new LongWritable();
    private final Text neighbour = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] ends = InputFiles.tokens(line.toString());
      if (ends.length == 0) {
        return;
      }
      long src;
      long dst;
      try {
        if (ends.length != 2) {
          throw new NumberFormatException();
        }
        src = Long.parseLong(ends[0]);
        dst = Long.parseLong(ends[1]);
      } catch (NumberFormatException e) {
        throw new IOException("adjacency-list input line at offset " + offset + " of "
            + InputFiles.fileName(context) + " is not 'src dst' (two whole numbers): '" + line
            + "'");
      }
      node.set(src);
      neighbour.set("o " + dst);
      context.write(node, neighbour);
      node.set(dst);
      neighbour.set("i " + src);
      context.write(node, neighbour);
    }
  }

  /** Writes the sorted in- and out-neighbours of one node. */
  public static class NeighboursReducer extends Reducer<LongWritable, Text, LongWritable, Text> {
    @Override
    protected void reduce(LongWritable node, Iterable<Text> neighbours, Context context)
        throws IOException, InterruptedException {
      TreeSet<Long> in = new TreeSet<>();
      TreeSet<Long> out = new TreeSet<>();
      for (Text neighbour : neighbours) {
        String text = neighbour.toString();
        (text.charAt(0) == 'i' ? in : out).add(Long.parseLong(text.substring(2)));
      }
      context.write(node, new Text("in=" + join(in) + ";out=" + join(out)));
    }

    private static String join(TreeSet<Long> ids) {
      StringJoiner joined = new StringJoiner(",");
      ids.forEach(id -> joined.add(Long.toString(id)));
      return joined.toString();
    }
  }

  @Override
  protected void configure(Job job, JobArguments args) {
    job.setMapperClass(EdgeMapper.class);
    job.setReducerClass(NeighboursReducer.class);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
  }
}
