package org.locus.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.jobs.Grep;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kat.hint.KeyHints;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.mapreduce.KeyAwareJobs;
import org.locus.kat.mapreduce.ShuffleLocality;
import org.locus.kat.placement.PlacementMap;
import org.locus.kat.verify.PlacementVerifier;
import org.locus.kat.verify.VerifyReport;
import org.locus.kit.LocusMiniCluster;

/**
 * KAT end to end on 4 hosts: import, verify, and WordCount and Grep run natively over the raw
 * corpus and key-aware over the imported datasets, side by side: same output, shuffle stays on
 * the host. Over an appended dataset the expected counts are the test's own, from the raw files.
 */
class KeyAwareJobsTest {
  private static final Path CORPUS = new Path("/corpus");
  private static final File CLUSTER_DIR = new File("target/test-clusters/kat-jobs");
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void startClusterAndLoadCorpus() throws Exception {
    cluster = LocusMiniCluster.builder(CLUSTER_DIR)
        .nodes(4)
        .volumes(StorageType.DISK)
        .yarn(true)
        // Room for all of an owner's maps plus an AM: a full owner would make YARN run a map
        // elsewhere after a few missed offers, and its output would then cross hosts.
        .nodeManagerMemoryMb(3072)
        .set("dfs.blocksize", "262144")
        .set("dfs.replication", "2")
        .set("dfs.block.replicator.classname",
            "org.apache.hadoop.hdfs.server.blockmanagement.KeyAwareBlockPlacementPolicy")
        .set("mapreduce.job.reduce.shuffle.consumer.plugin.class",
            "org.locus.kat.mapreduce.HostAttributingShuffle")
        .start();
    fs = cluster.getFileSystem();
    new ZipfTextGenerator(3000, 1.0, 11).write(fs, CORPUS, 4, 384 * 1024);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static PlacementMap importAs(String hint, Path dataset, QueueDesign design)
      throws IOException {
    new KatImporter(fs, KeyHints.parse(hint, fs.getConf()), hint, design, 32, p -> { })
        .run(CORPUS, dataset);
    return PlacementMap.read(fs, dataset);
  }

  @Test
  void wordCountWithKatMatchesNativeAndKeepsTheShuffleOnTheHost() throws Exception {
    Path dataset = new Path("/kat/wordcount");
    PlacementMap map = importAs("wordcount", dataset, QueueDesign.DISTRIBUTED);
    VerifyReport report = new PlacementVerifier(fs, KeyHints.parse("wordcount", fs.getConf()))
        .verify(dataset, map, 5);
    assertEquals(0, report.splitKeys(), "keys split across nodes");
    assertEquals(0, report.blocksOffOwner(), "blocks without a replica on their owner");

    Configuration conf = cluster.getConfiguration();
    conf.setBoolean(WordCount.COMBINER_KEY, false);
    JobOutcome nativeRun = JobOutcome.run(
        WordCount.create(conf, CORPUS, new Path("/out/wc-native"), 4), false);
    Job katJob = WordCount.create(conf, dataset, new Path("/out/wc-kat"), 4);
    KeyAwareJobs.configure(katJob, dataset, map);
    // Reducers asked for with the maps, before any map is done: their asks must go to YARN held
    // to the owners, and an owner's ask held back until its maps have their containers.
    katJob.getConfiguration().setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 0f);
    JobOutcome katRun = JobOutcome.run(katJob, false);

    assertTrue(nativeRun.succeeded() && katRun.succeeded());
    assertEquals(sortedLines(new Path("/out/wc-native")), sortedLines(new Path("/out/wc-kat")));
    long nativeCross = crossHostBytes(nativeRun);
    long katCross = crossHostBytes(katRun);
    assertTrue(nativeCross > 100_000, "native shuffle crosses hosts: " + nativeCross);
    assertTrue(katCross <= 0.05 * nativeCross, "KAT cross-host shuffle " + katCross
        + " vs native " + nativeCross + "; KAT maps data-local " + katRun.dataLocalMaps() + "/"
        + katRun.totalMaps());
    String amLog = applicationMasterLog(katJob);
    assertTrue(amLog.contains("held to the hosts they name"),
        "the KAT AM sent its reduce asks strict while maps ran");
    assertTrue(amLog.contains("released: the host is no longer held"),
        "the KAT AM held an owner's reduce ask while its maps waited, then released it");
  }

  @Test
  void wordCountOverAnAppendedDatasetMatchesNativeOverBothInputs() throws Exception {
    Path more = new Path("/corpus-more");
    new ZipfTextGenerator(3500, 1.0, 12).write(fs, more, 2, 192 * 1024);
    Path dataset = new Path("/kat/appended");
    importAs("wordcount", dataset, QueueDesign.CENTRAL);
    new KatImporter(fs, KeyHints.parse("wordcount", fs.getConf()), "wordcount",
        QueueDesign.DISTRIBUTED, 32, p -> { }).append(more, dataset);
    PlacementMap map = PlacementMap.read(fs, dataset);
    VerifyReport report = new PlacementVerifier(fs, KeyHints.parse("wordcount", fs.getConf()))
        .verify(dataset, map, 5);
    assertEquals(0, report.splitKeys(), "keys split across nodes after the append");

    Configuration conf = cluster.getConfiguration();
    Job katJob = WordCount.create(conf, dataset, new Path("/out/wc-kat-appended"), 4);
    KeyAwareJobs.configure(katJob, dataset, map);
    assertTrue(JobOutcome.run(katJob, false).succeeded());
    // The native answer over both raw inputs, counted here as WordCount's mapper tokenizes a
    // line: a native job over the raw files (one more job on the cluster) gives these lines.
    assertEquals(wordCountLines(CORPUS, more), sortedLines(new Path("/out/wc-kat-appended")));
  }

  @Test
  void grepWithKatCountsAsNativeDoesAndKeepsTheShuffleOnTheHost() throws Exception {
    String regex = "\\bw[1-9a-f][0-9a-z]?\\b";
    Path dataset = new Path("/kat/grep");
    PlacementMap map = importAs("grep:" + regex, dataset, QueueDesign.CENTRAL);
    VerifyReport report = new PlacementVerifier(fs, KeyHints.parse("grep:" + regex,
        fs.getConf())).verify(dataset, map, 5);
    assertEquals(0, report.splitKeys(), "keys split across nodes");

    Configuration conf = cluster.getConfiguration();
    JobOutcome nativeSearch = JobOutcome.run(
        Grep.createSearch(conf, CORPUS, new Path("/out/grep-native-counts"), regex, 4), false);
    Job katSearch = Grep.createSearch(conf, dataset, new Path("/out/grep-kat-counts"), regex, 4);
    KeyAwareJobs.configure(katSearch, dataset, map);
    JobOutcome katRun = JobOutcome.run(katSearch, false);
    assertTrue(nativeSearch.succeeded() && katRun.succeeded());
    // Grep's second job only sorts the search job's counts, the same code in both placements:
    // equal counts are equal results.
    assertEquals(sortedCounts(new Path("/out/grep-native-counts")),
        sortedCounts(new Path("/out/grep-kat-counts")));
    long nativeCross = crossHostBytes(nativeSearch);
    long katCross = crossHostBytes(katRun);
    assertTrue(nativeCross > 0, "native shuffle crosses hosts: " + nativeCross);
    assertTrue(katCross <= 0.05 * nativeCross,
        "KAT cross-host shuffle " + katCross + " vs native " + nativeCross);
  }

  private static long crossHostBytes(JobOutcome outcome) {
    return outcome.counters().findCounter(ShuffleLocality.CROSS_HOST_BYTES).getValue();
  }

  /** The syslog of a job's ApplicationMaster (its first container) in the NodeManagers' logs. */
  private static String applicationMasterLog(Job job) throws IOException {
    String app = job.getJobID().toString().replace("job_", "application_");
    try (Stream<java.nio.file.Path> files = Files.walk(CLUSTER_DIR.toPath())) {
      List<java.nio.file.Path> logs = files
          .filter(f -> f.getFileName().toString().equals("syslog")
              && f.getParent().getFileName().toString().endsWith("_000001")
              && f.getParent().getParent().getFileName().toString().equals(app))
          .toList();
      assertEquals(1, logs.size(), "one AM log of " + app + " under " + CLUSTER_DIR + ": " + logs);
      return Files.readString(logs.get(0));
    }
  }

  private static List<String> sortedLines(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FileStatus file : fs.listStatus(dir)) {
      if (file.getPath().getName().startsWith("part-")) {
        lines.addAll(readAll(file.getPath()));
      }
    }
    Collections.sort(lines);
    return lines;
  }

  /** The search job's (match, count) records, as sorted {@code match<TAB>count} strings. */
  private static List<String> sortedCounts(Path dir) throws IOException {
    List<String> records = new ArrayList<>();
    for (FileStatus file : fs.listStatus(dir)) {
      if (file.getPath().getName().startsWith("part-")) {
        try (SequenceFile.Reader reader = new SequenceFile.Reader(fs.getConf(),
            SequenceFile.Reader.file(file.getPath()))) {
          Text match = new Text();
          LongWritable count = new LongWritable();
          while (reader.next(match, count)) {
            records.add(match + "\t" + count.get());
          }
        }
      }
    }
    Collections.sort(records);
    assertTrue(records.size() > 10, "the search found matches: " + records);
    return records;
  }

  /**
   * The {@code word<TAB>count} lines a native WordCount over the files of {@code dirs} writes,
   * sorted: each line split into tokens as {@link WordCount.TokenMapper} splits it.
   */
  private static List<String> wordCountLines(Path... dirs) throws IOException {
    Map<String, Integer> counts = new HashMap<>();
    for (Path dir : dirs) {
      for (FileStatus file : fs.listStatus(dir)) {
        for (String line : readAll(file.getPath())) {
          StringTokenizer tokens = new StringTokenizer(line);
          while (tokens.hasMoreTokens()) {
            counts.merge(tokens.nextToken(), 1, Integer::sum);
          }
        }
      }
    }
    List<String> lines = new ArrayList<>();
    counts.forEach((word, count) -> lines.add(word + "\t" + count));
    Collections.sort(lines);
    assertTrue(lines.size() > 1000, "the inputs hold the Zipf vocabularies: " + lines.size());
    return lines;
  }

  private static List<String> readAll(Path file) throws IOException {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      return in.lines().toList();
    }
  }
}
