package org.locus.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kit.LocusMiniCluster;

/**
 * WordCount and Grep on the kit's 4-node cluster with YARN: correct output against counts made
 * in the test itself, and host-level locality visible in the job counters.
 *
 * <p>The corpus is replicated on every node, so whichever NodeManager the scheduler offers a map
 * container on holds that map's block: every map must count as data-local. That holds however
 * busy the machine is, and it fails if container hosts and block hosts were named differently
 * (the stock mini clusters: every DataNode 127.0.0.1, every NodeManager localhost, 0 data-local).
 * With fewer replicas than nodes, how many maps run local depends on when nodes free up.
 */
class JobsOnMultiHostClusterTest {
  private static final Path INPUT = new Path("/corpus");
  /** Not the mini cluster's default, so the test sees the builder's value reach YARN. */
  private static final int NODE_MANAGER_MEMORY_MB = 3072;
  private static LocusMiniCluster cluster;
  private static FileSystem fs;

  @BeforeAll
  static void startClusterAndLoadCorpus() throws Exception {
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/jobs"))
        .nodes(4)
        .volumes(StorageType.DISK)
        .yarn(true)
        .nodeManagerMemoryMb(NODE_MANAGER_MEMORY_MB)
        .set("dfs.blocksize", "262144")
        .set("dfs.replication", "4")
        .start();
    fs = cluster.getFileSystem();
    new ZipfTextGenerator(2000, 1.0, 7).write(fs, INPUT, 4, 512 * 1024);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void blocksOfTheCorpusLiveOnFourDistinctHosts() throws Exception {
    Set<String> hosts = new HashSet<>();
    for (FileStatus file : fs.listStatus(INPUT)) {
      for (BlockLocation block : fs.getFileBlockLocations(file, 0, file.getLen())) {
        hosts.addAll(Arrays.asList(block.getHosts()));
      }
    }
    assertEquals(Set.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"), hosts);
  }

  @Test
  void wordCountIsCorrectAndEveryMapRunsOnAHostOfItsBlock() throws Exception {
    Path output = new Path("/out/wordcount");
    JobOutcome outcome = JobOutcome.run(
        WordCount.create(cluster.getConfiguration(), INPUT, output, 2), false);

    assertTrue(outcome.succeeded());
    assertEquals(countTokensDirectly(), readCounts(output));
    assertTrue(outcome.mapTasks() >= 8, "one map per 256 KiB block: " + outcome.mapTasks());
    // Every container given to a map attempt was on a host of its block. DATA_LOCAL_MAPS counts
    // assigned containers, TOTAL_LAUNCHED_MAPS launched attempts: a speculative attempt assigned
    // and then killed before launch (a loaded machine) counts in the first only, so the
    // guarantee is no off-host assignment, not equal counts.
    long offHost = outcome.rackLocalMaps()
        + outcome.counters().findCounter(JobCounter.OTHER_LOCAL_MAPS).getValue();
    assertEquals(0, offHost, "maps that ran off their block's hosts");
    assertTrue(outcome.dataLocalMaps() >= outcome.totalMaps(), "data-local "
        + outcome.dataLocalMaps() + " of " + outcome.totalMaps() + " launched maps");
  }

  @Test
  void grepCountsMatchesAndSortsByFrequency() throws Exception {
    String regex = "\\bw1[0-9a-z]\\b";
    Path counts = new Path("/out/grep-counts");
    Path output = new Path("/out/grep");
    assertTrue(JobOutcome.run(Grep.createSearch(cluster.getConfiguration(), INPUT, counts,
        regex, 2), false).succeeded());
    assertTrue(JobOutcome.run(Grep.createSort(cluster.getConfiguration(), counts, output),
        false).succeeded());

    Map<String, Long> expected = new TreeMap<>();
    Pattern pattern = Pattern.compile(regex);
    forEachLine(INPUT, line -> {
      Matcher m = pattern.matcher(line);
      while (m.find()) {
        expected.merge(m.group(), 1L, Long::sum);
      }
    });
    Map<String, Long> actual = new TreeMap<>();
    long previous = Long.MAX_VALUE;
    for (String line : readLines(new Path(output, "part-r-00000"))) {
      String[] fields = line.split("\t");
      long count = Long.parseLong(fields[0]);
      assertTrue(count <= previous, "sorted by decreasing count");
      previous = count;
      actual.put(fields[1], count);
    }
    assertTrue(expected.size() > 5, "the pattern matches several words");
    assertEquals(expected, actual);
  }

  @Test
  void writeCorpusJobWritesTheClientGeneratorsFilesByteForByte() throws Exception {
    Path jobOutput = new Path("/out/corpus-job");
    Path clientOutput = new Path("/out/corpus-client");
    JobOutcome outcome = JobOutcome.run(WriteCorpus.create(cluster.getConfiguration(),
        jobOutput, 3, 100_000, 300, 1.2, 11), false);
    assertTrue(outcome.succeeded());
    assertEquals(3, outcome.mapTasks(), "one map per file");
    new ZipfTextGenerator(300, 1.2, 11).write(fs, clientOutput, 3, 100_000);
    for (int i = 0; i < 3; i++) {
      List<String> expected = readLines(new Path(clientOutput, String.format("part-%05d", i)));
      List<String> actual = readLines(new Path(jobOutput, String.format("part-m-%05d", i)));
      assertTrue(expected.size() > 1000, "file " + i + " has " + expected.size() + " lines");
      assertEquals(expected, actual, "file " + i);
      assertEquals(fs.getFileStatus(new Path(clientOutput, String.format("part-%05d", i)))
          .getLen(), fs.getFileStatus(new Path(jobOutput, String.format("part-m-%05d", i)))
          .getLen());
    }
  }

  @Test
  void writeCorpusRefusesAnEmptyCorpusBeforeSubmitting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WriteCorpus.create(cluster.getConfiguration(), new Path("/out/none"), 0, 10, 10,
            1.0, 1));
    assertTrue(e.getMessage().contains("0 files"), e.getMessage());
  }

  @Test
  void everyNodeManagerOffersTheMemoryTheBuilderAskedFor() {
    Collection<RMNode> nodes = cluster.getYarnCluster().getResourceManager().getRMContext()
        .getRMNodes().values();
    assertEquals(4, nodes.size());
    for (RMNode node : nodes) {
      assertEquals(NODE_MANAGER_MEMORY_MB, node.getTotalCapability().getMemorySize(),
          "memory the ResourceManager sees on " + node.getHostName());
    }
  }

  @Test
  void withoutLocusKeysYarnRunsOnlyStockServices() {
    for (int i = 0; i < 4; i++) {
      Configuration nm = cluster.getYarnCluster().getNodeManager(i).getConfig();
      assertEquals(List.of("mapreduce_shuffle"), List.copyOf(nm.getTrimmedStringCollection(
          "yarn.nodemanager.aux-services")));
      for (Map.Entry<String, String> e : nm) {
        assertFalse(e.getValue().contains("org.locus"), "NodeManager key " + e.getKey());
      }
    }
  }

  @Test
  void grepRefusesAnInvalidPatternBeforeSubmitting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Grep.createSearch(cluster.getConfiguration(), INPUT, new Path("/out/bad"),
            "w(1", 1));
    assertTrue(e.getMessage().contains("w(1"), e.getMessage());
  }

  private static Map<String, Long> countTokensDirectly() throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    forEachLine(INPUT, line -> {
      for (String token : line.split("\\s+")) {
        if (!token.isEmpty()) {
          counts.merge(token, 1L, Long::sum);
        }
      }
    });
    return counts;
  }

  private static Map<String, Long> readCounts(Path output) throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    forEachLine(output, line -> {
      String[] fields = line.split("\t");
      counts.put(fields[0], Long.parseLong(fields[1]));
    });
    return counts;
  }

  private interface LineConsumer {
    void accept(String line);
  }

  private static void forEachLine(Path dir, LineConsumer consumer) throws IOException {
    for (FileStatus file : fs.listStatus(dir)) {
      if (file.getPath().getName().startsWith("part-")) {
        readLines(file.getPath()).forEach(consumer::accept);
      }
    }
  }

  private static List<String> readLines(Path file) throws IOException {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      return in.lines().toList();
    }
  }
}
