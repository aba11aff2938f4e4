package org.locus.cli.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.bench.report.ResultsFile;
import org.locus.bench.run.RunRecord;
import org.locus.cli.CliRun;

/**
 * {@code locus bench boost}'s arguments, refused before any cluster starts (the bench itself
 * needs root and two netns clusters; its output is checked by hand, see docs/boost.md).
 */
class BoostBenchCommandTest {
  @Test
  void aBlockSizeIsWholeMebibytesOrGibibytes() {
    // whole MiB: never below the NameNode's 1 MiB minimum, always whole checksum chunks
    for (String size : new String[] {"512k", "0m", "32mb"}) {
      CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--block-size", size);
      assertTrue(run.err().contains("--block-size needs a size like 512m or 2g, got '" + size
          + "'"), run.err());
    }
  }

  @Test
  void aTaskContainerLargerThanANodeOffersIsRefused() {
    CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--node-memory", "1280m",
        "--map-memory", "768m");
    assertTrue(run.err().contains("--map-memory 768m but a node offers its containers 512 MiB"),
        run.err());
  }

  @Test
  void aContainerYarnWouldRoundUpIsRefusedWithTheSizeItWouldGet() {
    CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--am-memory", "384m");
    assertTrue(run.err().contains("--am-memory 384m is not a multiple of 256m: YARN rounds"
        + " container requests up to one (yarn.scheduler.minimum-allocation-mb), so the task would"
        + " get 512m; ask for 256m or 512m"), run.err());
  }

  @Test
  void aJobKeyWithoutAValueIsRefused() {
    CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--job-key",
        "mapreduce.map.speculative");
    assertTrue(run.err().contains("--job-key needs KEY=VALUE, got 'mapreduce.map.speculative'"),
        run.err());
  }

  @Test
  void anUnknownDiskModelIsRefused() {
    CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--disk-model", "ssd");
    assertTrue(run.err().contains("unknown disk model 'ssd' for --disk-model; one of none, hdd"),
        run.err());
  }

  @Test
  void anUnknownComparisonIsRefused() {
    CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--compare", "energy");
    assertTrue(run.err().contains("--compare takes capacity or availability, not 'energy'"),
        run.err());
  }

  @Test
  void theSameAvailabilityNeedsANodeForEveryHdfsCopy() {
    // BoostDFS then keeps copies + 1: the REPLICATED node and copies - 1 plain ones
    CliRun availability = CliRun.inProcessExpecting(2, "bench", "boost", "--nodes", "4",
        "--copies", "5", "--compare", "availability");
    assertTrue(availability.err().contains("--copies 5 needs 3..4 with --nodes 4 and --compare"
        + " availability"), availability.err());
    CliRun capacity = CliRun.inProcessExpecting(2, "bench", "boost", "--nodes", "4",
        "--copies", "6");
    assertTrue(capacity.err().contains("--copies 6 needs 3..5 with --nodes 4 and --compare"
        + " capacity"), capacity.err());
  }

  @Test
  void aNegativeWarmUpIsRefused() {
    CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--warmup", "-1");
    assertTrue(run.err().contains("--warmup"), run.err());
  }

  @Test
  void resumingABenchWhoseRunsAreAllThereOnlyWritesTheReport(@TempDir File out)
      throws Exception {
    ResultsFile results = new ResultsFile("puma", "netns", List.of("hdfs", "boost"), 1,
        List.of("grep"));
    results.add(new RunRecord("grep", "hdfs", 1, true, 80_000, false,
        Map.of("TOTAL_LAUNCHED_MAPS", 10L, "DATA_LOCAL_MAPS", 9L), Map.of()));
    results.add(new RunRecord("grep", "boost", 1, true, 60_000, false,
        Map.of("TOTAL_LAUNCHED_MAPS", 10L, "SUPERLOCAL_MAPS", 8L), Map.of()));
    results.write(new File(out, "results.json"));
    // no cluster starts (that would need root and minutes): every run is there
    CliRun run = CliRun.inProcessExpecting(0, "bench", "boost", "--suite", "puma", "--jobs",
        "grep", "--runs", "1", "--compare", "availability", "--out", out.getPath(), "--resume");
    assertTrue(run.err().contains("feature boost: every run already in"), run.err());
    String report = Files.readString(new File(out, "report.md").toPath());
    assertTrue(report.contains("| grep | disk-bound |"), report);
    assertTrue(report.contains("| 80.0 | 60.0 | 0.750 | n/a | 90 % | 80 % |"), report);
    assertTrue(report.contains("SUPERLOCAL with 4 copies (replication 3"), report);
  }

  @Test
  void resumingFromAnotherSuitesResultsIsRefused(@TempDir File out) throws Exception {
    new ResultsFile("puma-small", "netns", List.of("hdfs", "boost"), 1, List.of("grep"))
        .write(new File(out, "results.json"));
    CliRun run = CliRun.inProcessExpecting(1, "bench", "boost", "--suite", "puma", "--jobs",
        "grep", "--runs", "1", "--out", out.getPath(), "--resume");
    assertTrue(run.err().contains("is not a locus-bench-results/1 file of suite puma"),
        run.err());
  }

  @Test
  void helpListsTheBlockSize() {
    CliRun run = CliRun.inProcessExpecting(0, "bench", "boost", "--help");
    assertTrue(run.out().contains("--block-size <SIZE>"), run.out());
    assertTrue(run.out().contains("--am-memory <SIZE>"), run.out());
    assertTrue(run.out().contains("--compare <WHAT>"), run.out());
    assertTrue(run.out().contains("--warmup <W>"), run.out());
    assertTrue(run.out().contains("--interleave "), run.out());
  }
}
