package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/**
 * {@code locus bench lowpower} end to end at its smallest (two 1-node netns clusters, 2 MiB,
 * two rounds): every row measured in every round, each probe's data read back intact (the
 * probe exits non-zero otherwise), the direct-I/O rows on DataNodes that really write with
 * O_DIRECT and the others on stock ones, and both clusters gone afterwards. Bad arguments are
 * refused before any cluster starts.
 */
@StartsNetnsClusters
class NetnsLowpowerBenchTest {
  private static final File WORK = new File("target/test-clusters/lowpower-bench")
      .getAbsoluteFile();
  private static final long SIZE = 2L << 20;

  @Test
  void everyRowIsMeasuredEveryRoundOnTheRightClusterAndNothingIsLeft() throws Exception {
    File clusters = new File(WORK, "clusters");
    File stock = new File(clusters, "stock");
    File direct = new File(clusters, "direct-io");
    NetnsResources.freshWorkDirectory(WORK, stock);
    NetnsResources.down(direct);
    File out = new File(WORK, "out");

    CliRun run = CliRun.inProcess("bench", "lowpower", "--nodes", "1", "--replication", "1",
        "--size", "2", "--rounds", "2", "--node-cpus", "1", "--disk-rate", "200MB/s",
        "--dir", clusters.getPath(),
        "--out", out.getPath());

    assertEquals(0, run.exitCode(), run.toString());
    List<String> lines = Files.readAllLines(new File(out, "samples.tsv").toPath());
    assertEquals(1 + 4 * 2, lines.size(), "header + 4 rows x 2 rounds:\n" + lines);
    Set<String> seen = new TreeSet<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t");
      seen.add(f[0] + " round " + f[2]);
      assertEquals("1", f[1], line);
      assertEquals(SIZE, Long.parseLong(f[10]), line);
      long stored = Long.parseLong(f[9]);
      if (f[0].equals("lz4-output")) {
        assertTrue(stored < SIZE, "LZ4 stores less than the Zipf text it was given: " + line);
      } else {
        assertEquals(SIZE, stored, line);
      }
      assertTrue(Long.parseLong(f[3]) > 0 && Long.parseLong(f[4]) > 0, line);
    }
    assertEquals(8, seen.size(), seen.toString());
    String report = Files.readString(new File(out, "report.md").toPath());
    for (String row : List.of("| 1 | stock |", "| 1 | direct-io |", "| 1 | checksum-4096 |",
        "| 1 | lz4-output |")) {
      assertTrue(report.contains(row), row + " in\n" + report);
    }
    assertTrue(report.contains("**emulated** weak cores") && report.contains("--opt-in"),
        report);
    assertTrue(report.contains("device throttled to 200MB/s read and write"), report);
    assertTrue(new File(out, "lowpower-bench.svg").isFile());

    assertTrue(dataNodeLog(direct).contains("Block files are written with O_DIRECT"),
        "the direct-io cluster's DataNode");
    assertFalse(dataNodeLog(stock).contains("O_DIRECT"), "the stock cluster's DataNode");
    for (File dir : List.of(stock, direct)) {
      Map<String, List<String>> left = NetnsResources.of(dir);
      assertTrue(NetnsResources.none(left), dir + " left " + left);
    }
  }

  @Test
  void badArgumentsAreRefusedNamingWhatIsWrong() {
    assertRefused("replication 3 needs 1..2 DataNodes", "--nodes", "2", "--replication", "1,3");
    assertRefused("--replication takes numbers", "--replication", "1,x");
    assertRefused("--node-cpus", "--node-cpus", "0");
    assertRefused("unknown rate '40MB' for --disk-rate", "--disk-rate", "40MB");
    assertRefused("holds no jar", "--opt-in", WORK.getPath() + "/no-such-dir");
  }

  private static void assertRefused(String message, String... options) {
    String[] args = new String[options.length + 2];
    args[0] = "bench";
    args[1] = "lowpower";
    System.arraycopy(options, 0, args, 2, options.length);
    CliRun run = CliRun.inProcess(args);
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains(message), message + " in\n" + run.err());
  }

  private static String dataNodeLog(File cluster) throws Exception {
    StringBuilder text = new StringBuilder();
    File[] logs = new File(cluster, "nodes/node1/logs").listFiles();
    for (File log : logs == null ? new File[0] : logs) {
      text.append(Files.readString(log.toPath()));
    }
    return text.toString();
  }
}
