package org.locus.bench.kat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.mapreduce.Job;
import org.locus.jobs.Grep;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.kat.hint.KeyHints;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.mapreduce.KeyAwareJobs;
import org.locus.kat.mapreduce.ShuffleLocality;
import org.locus.kat.placement.PlacementMap;

/**
 * Runs one job natively over a plain corpus and key-aware over its KAT dataset, side by side on
 * the same cluster, and compares time, shuffle and output. Used by {@code locus bench kat} and
 * the demo. The cluster must count shuffle locality (KAT's feature key set).
 */
public final class KatComparison {
  /**
   * One side of a comparison.
   *
   * @param wireBytes bytes the worker nodes sent on their links while the job ran; -1 where
   *     the cluster cannot count them (loopback in one JVM)
   */
  public record Side(JobOutcome outcome, long crossHostBytes, long wireBytes) {
  }

  /** Counts the bytes the cluster's workers have sent on their links so far. */
  public interface WireCounter {
    long bytesSent() throws IOException;
  }

  /** Both sides of one job. */
  public record Result(String job, Side nativeRun, Side katRun, boolean identical) {
  }

  private final Configuration conf;
  private final DistributedFileSystem fs;
  private final WireCounter wire;
  private int run;

  public KatComparison(Configuration conf, DistributedFileSystem fs) {
    this(conf, fs, () -> -1);
  }

  public KatComparison(Configuration conf, DistributedFileSystem fs, WireCounter wire) {
    this.conf = conf;
    this.fs = fs;
    this.wire = wire;
  }

  public PlacementMap importDataset(Path corpus, String hint, Path dataset) throws IOException {
    new KatImporter(fs, KeyHints.parse(hint, conf), hint, QueueDesign.DISTRIBUTED, 64, p -> { })
        .run(corpus, dataset);
    return PlacementMap.read(fs, dataset);
  }

  /** WordCount without a combiner: every word occurrence crosses the shuffle. */
  public Result wordCount(Path corpus, Path dataset, PlacementMap map) throws Exception {
    return wordCount(corpus, dataset, map, false);
  }

  /**
   * WordCount natively and key-aware.
   *
   * @param combiner with Hadoop's combiner (what users run: the shuffle shrinks to one record
   *     per word and map) or without (every occurrence is shuffled)
   */
  public Result wordCount(Path corpus, Path dataset, PlacementMap map, boolean combiner)
      throws Exception {
    int id = ++run;
    String name = combiner ? "wordcount+combiner" : "wordcount";
    Configuration jobConf = new Configuration(conf);
    jobConf.setBoolean(WordCount.COMBINER_KEY, combiner);
    int reducers = map.hosts().size();
    Path nativeOut = new Path("/bench/" + name + "-native-" + id);
    Path katOut = new Path("/bench/" + name + "-kat-" + id);
    Side nativeSide = side(WordCount.create(jobConf, corpus, nativeOut, reducers));
    Job katJob = WordCount.create(jobConf, dataset, katOut, reducers);
    KeyAwareJobs.configure(katJob, dataset, map);
    Side katSide = side(katJob);
    return new Result(name, nativeSide, katSide,
        sortedLines(nativeOut).equals(sortedLines(katOut)));
  }

  /** Grep's search job natively and key-aware; outputs compared after the sort job. */
  public Result grep(Path corpus, Path dataset, PlacementMap map, String regex) throws Exception {
    int id = ++run;
    int reducers = map.hosts().size();
    Path nativeCounts = new Path("/bench/grep-native-counts-" + id);
    Path katCounts = new Path("/bench/grep-kat-counts-" + id);
    Side nativeSide = side(Grep.createSearch(conf, corpus, nativeCounts, regex, reducers));
    Job katJob = Grep.createSearch(conf, dataset, katCounts, regex, reducers);
    KeyAwareJobs.configure(katJob, dataset, map);
    Side katSide = side(katJob);
    Path nativeOut = new Path("/bench/grep-native-" + id);
    Path katOut = new Path("/bench/grep-kat-" + id);
    JobOutcome.run(Grep.createSort(conf, nativeCounts, nativeOut), false);
    JobOutcome.run(Grep.createSort(conf, katCounts, katOut), false);
    return new Result("grep", nativeSide, katSide, lines(nativeOut).equals(lines(katOut)));
  }

  private Side side(Job job) throws Exception {
    long sentBefore = wire.bytesSent();
    JobOutcome outcome = JobOutcome.run(job, false);
    long sentAfter = wire.bytesSent();
    if (!outcome.succeeded()) {
      throw new IOException("job " + job.getJobName() + " failed");
    }
    return new Side(outcome,
        outcome.counters().findCounter(ShuffleLocality.CROSS_HOST_BYTES).getValue(),
        sentBefore < 0 ? -1 : sentAfter - sentBefore);
  }

  private List<String> sortedLines(Path dir) throws IOException {
    List<String> all = lines(dir);
    Collections.sort(all);
    return all;
  }

  private List<String> lines(Path dir) throws IOException {
    List<String> all = new ArrayList<>();
    FileStatus[] parts = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
    java.util.Arrays.sort(parts);
    for (FileStatus part : parts) {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(fs.open(part.getPath()), StandardCharsets.UTF_8))) {
        in.lines().forEach(all::add);
      }
    }
    return all;
  }
}
