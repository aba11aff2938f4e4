package org.locus.jobs.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobOption;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.catalog.LocusJob;

/**
 * PUMA classification (shuffle-light, seed 001 Table 4.6): assigns every movie to the most
 * cosine-similar of K fixed centres ({@link Centroids}), which are the first K movies of the
 * input (data files in name order) unless {@code --centroids FILE} gives them. Output:
 * {@code cluster \t movieId}, one line per movie, movie ids ascending within a cluster.
 */
public final class Classification implements LocusJob {
  /** Path of the centroid file the map tasks read. */
  public static final String CENTROIDS_KEY = "locus.job.classification.centroids";

  @Override
  public String name() {
    return "classification";
  }

  @Override
  public String summary() {
    return "assign every movie to the most similar of K centre movies (cosine similarity)";
  }

  @Override
  public String inputKind() {
    return "ratings";
  }

  @Override
  public List<JobOption> options() {
    return List.of(
        JobOption.value("clusters", "K", "number of centres, the first K movies (default 4)"),
        JobOption.value("centroids", "FILE", "centroid file 'index:userId_sum,...' instead"));
  }

  @Override
  public void check(JobArguments args) {
    args.intValue("clusters", 4, 1, 10_000);
  }

  /** Emits (nearest centre, movieId) per movie. */
  public static class NearestCentreMapper
      extends Mapper<LongWritable, Text, IntWritable, LongWritable> {
    private Centroids centroids;
    private final IntWritable cluster = new IntWritable();
    private final LongWritable movie = new LongWritable();

    @Override
    protected void setup(Context context) throws IOException {
      centroids = readCentroids(context.getConfiguration());
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      if (line.getLength() == 0) {
        return;
      }
      MovieRatings ratings = parse(line, offset, context);
      cluster.set(centroids.nearest(ratings));
      movie.set(ratings.movieId());
      context.write(cluster, movie);
    }
  }

  /** Writes the movies of one cluster in ascending order. */
  public static class MembersReducer
      extends Reducer<IntWritable, LongWritable, IntWritable, LongWritable> {
    @Override
    protected void reduce(IntWritable cluster, Iterable<LongWritable> movies, Context context)
        throws IOException, InterruptedException {
      List<Long> sorted = new ArrayList<>();
      for (LongWritable movie : movies) {
        sorted.add(movie.get());
      }
      Collections.sort(sorted);
      LongWritable out = new LongWritable();
      for (long movie : sorted) {
        out.set(movie);
        context.write(cluster, out);
      }
    }
  }

  static MovieRatings parse(Text line, LongWritable offset, Mapper<?, ?, ?, ?>.Context context)
      throws IOException {
    try {
      return MovieRatings.parse(line.toString());
    } catch (IllegalArgumentException e) {
      throw new IOException(InputFiles.fileName(context) + " offset " + offset + ": "
          + e.getMessage());
    }
  }

  static Centroids readCentroids(Configuration conf) throws IOException {
    Path file = new Path(conf.get(CENTROIDS_KEY));
    return Centroids.read(file.getFileSystem(conf), file);
  }

  /** The first {@code k} movies of {@code input} as centres. */
  static Centroids firstMovies(FileSystem fs, Path input, int k) throws IOException {
    List<MovieRatings> movies = new ArrayList<>();
    for (String line : InputFiles.firstLines(fs, input, k)) {
      movies.add(MovieRatings.parse(line));
    }
    if (movies.isEmpty()) {
      throw new IOException("input " + input + " holds no movie-ratings line to take centres"
          + " from");
    }
    return Centroids.ofMovies(movies);
  }

  /** Creates (does not submit) the job assigning movies to the centres in {@code centroids}. */
  public static Job create(Configuration conf, Path input, Path output, Path centroids,
      int reducers) throws IOException {
    Job job = Job.getInstance(conf, "locus-classification");
    job.setJarByClass(Classification.class);
    job.getConfiguration().set(CENTROIDS_KEY,
        centroids.getFileSystem(conf).makeQualified(centroids).toString());
    job.setMapperClass(NearestCentreMapper.class);
    job.setReducerClass(MembersReducer.class);
    job.setNumReduceTasks(reducers);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(LongWritable.class);
    org.apache.hadoop.mapreduce.lib.input.FileInputFormat.addInputPath(job, input);
    org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  @Override
  public JobResult run(Configuration conf, Path input, Path output, JobArguments args)
      throws Exception {
    check(args);
    FileSystem fs = output.getFileSystem(conf);
    Path work = KMeans.workDirectory(fs, output, "classification");
    try {
      Path centroids = new Path(work, "centroids");
      String given = args.string("centroids", null);
      if (given != null) {
        Path file = new Path(given);
        Centroids.read(file.getFileSystem(conf), file).write(fs, centroids);
      } else {
        firstMovies(input.getFileSystem(conf), input, args.intValue("clusters", 4, 1, 10_000))
            .write(fs, centroids);
      }
      return JobResult.of(JobOutcome.run(args.prepareInputJob(
          create(conf, input, output, centroids, args.reducers())), false));
    } finally {
      fs.delete(work, true);
    }
  }
}
