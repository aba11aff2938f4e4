package org.locus.jobs.puma;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobOption;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.catalog.LocusJob;

/**
 * PUMA k-means (shuffle-heavy, seed 001 Table 4.7) over movie ratings with cosine similarity.
 * Starts from the first K movies (as {@link Classification}); each of {@code --iterations}
 * MapReduce jobs sends every movie's ratings to its nearest centre, whose new value is the
 * per-user sum of its members' ratings (a centre with no member keeps its value). A last job
 * classifies the movies against the final centres. Output: {@code cluster \t movieId} as
 * {@link Classification}, plus the final centres in {@code OUTPUT/centroids} (format in
 * {@link Centroids}).
 */
public final class KMeans implements LocusJob {
  @Override
  public String name() {
    return "k-means";
  }

  @Override
  public String summary() {
    return "cluster movies by their ratings: K centres, N refinement jobs, final assignment";
  }

  @Override
  public String inputKind() {
    return "ratings";
  }

  @Override
  public List<JobOption> options() {
    return List.of(
        JobOption.value("clusters", "K", "number of centres (default 4)"),
        JobOption.value("iterations", "N", "refinement jobs before the assignment (default 3)"));
  }

  @Override
  public void check(JobArguments args) {
    args.intValue("clusters", 4, 1, 10_000);
    args.intValue("iterations", 3, 1, 1000);
  }

  /** Emits (nearest centre, the movie's ratings text) per movie. */
  public static class AssignMapper extends Mapper<LongWritable, Text, IntWritable, Text> {
    private Centroids centroids;
    private final IntWritable cluster = new IntWritable();
    private final Text ratings = new Text();

    @Override
    protected void setup(Context context) throws IOException {
      centroids = Classification.readCentroids(context.getConfiguration());
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      if (line.getLength() == 0) {
        return;
      }
      MovieRatings movie = Classification.parse(line, offset, context);
      cluster.set(centroids.nearest(movie));
      String text = line.toString();
      ratings.set(text.substring(text.indexOf(':') + 1));
      context.write(cluster, ratings);
    }
  }

  /** Sums the members' ratings per user into the new centre line. */
  public static class CentreReducer extends Reducer<IntWritable, Text, Text, NullWritable> {
    @Override
    protected void reduce(IntWritable cluster, Iterable<Text> members, Context context)
        throws IOException, InterruptedException {
      Map<Long, Long> sums = new HashMap<>();
      for (Text member : members) {
        MovieRatings ratings = MovieRatings.parse("0:" + member);
        for (int i = 0; i < ratings.users().length; i++) {
          sums.merge(ratings.users()[i], (long) ratings.ratings()[i], Long::sum);
        }
      }
      context.write(new Text(Centroids.line(cluster.get(), sums)), NullWritable.get());
    }
  }

  /** @return a fresh scratch directory next to {@code output}, deleted by the caller */
  static Path workDirectory(FileSystem fs, Path output, String job) throws IOException {
    Path qualified = fs.makeQualified(output);
    // not hidden ('.' or '_'): FileInputFormat would skip it as a job input
    Path work = new Path(qualified.getParent(), qualified.getName() + "-" + job + "-work");
    fs.delete(work, true);
    fs.mkdirs(work);
    return work;
  }

  @Override
  public JobResult run(Configuration conf, Path input, Path output, JobArguments args)
      throws Exception {
    check(args);
    int k = args.intValue("clusters", 4, 1, 10_000);
    int iterations = args.intValue("iterations", 3, 1, 1000);
    FileSystem fs = output.getFileSystem(conf);
    Path work = workDirectory(fs, output, "k-means");
    List<JobOutcome> outcomes = new ArrayList<>();
    try {
      Centroids centroids = Classification.firstMovies(input.getFileSystem(conf), input, k);
      Path current = new Path(work, "centroids-0");
      centroids.write(fs, current);
      for (int i = 1; i <= iterations; i++) {
        Path step = new Path(work, "step-" + i);
        Job job = Job.getInstance(conf, "locus-k-means-" + i);
        job.setJarByClass(KMeans.class);
        job.getConfiguration().set(Classification.CENTROIDS_KEY,
            fs.makeQualified(current).toString());
        job.setMapperClass(AssignMapper.class);
        job.setReducerClass(CentreReducer.class);
        job.setNumReduceTasks(args.reducers());
        job.setMapOutputKeyClass(IntWritable.class);
        job.setMapOutputValueClass(Text.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(NullWritable.class);
        FileInputFormat.addInputPath(job, input);
        FileOutputFormat.setOutputPath(job, step);
        JobOutcome outcome = JobOutcome.run(args.prepareInputJob(job), false);
        outcomes.add(outcome);
        if (!outcome.succeeded()) {
          return new JobResult(outcomes, List.of());
        }
        centroids = merge(centroids, readStep(fs, step));
        current = new Path(work, "centroids-" + i);
        centroids.write(fs, current);
      }
      JobOutcome assign = JobOutcome.run(args.prepareInputJob(
          Classification.create(conf, input, output, current, args.reducers())), false);
      outcomes.add(assign);
      if (assign.succeeded()) {
        FileUtil.copy(fs, current, fs, new Path(output, "centroids"), false, conf);
      }
      return new JobResult(outcomes, List.of());
    } finally {
      fs.delete(work, true);
    }
  }

  private static Map<Integer, Map<Long, Long>> readStep(FileSystem fs, Path step)
      throws IOException {
    Map<Integer, Map<Long, Long>> centres = new HashMap<>();
    for (FileStatus part : fs.listStatus(step, p -> p.getName().startsWith("part-"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          fs.open(part.getPath()), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          Map.Entry<Integer, Map<Long, Long>> entry = Centroids.parseLine(line);
          centres.put(entry.getKey(), entry.getValue());
        }
      }
    }
    return centres;
  }

  /** New centres where a cluster had members, the previous ones elsewhere. */
  private static Centroids merge(Centroids previous, Map<Integer, Map<Long, Long>> updated) {
    List<Map<Long, Long>> centres = new ArrayList<>();
    for (int i = 0; i < previous.size(); i++) {
      centres.add(updated.getOrDefault(i, previous.centre(i)));
    }
    return new Centroids(centres);
  }
}
