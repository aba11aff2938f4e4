package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@code locus bench energy --cluster netns} end to end at its smallest (native and the fixed
 * timeout, one round, two 512 KiB files, a SWIM replay of FB-2009's first job): both set-ups
 * measured on netns clusters whose
 * DataNode processes each run a power manager, the accounts read over their {@code /jmx}, the
 * native cluster's backups never spun up nor down, the report naming the netns cluster, and both
 * clusters gone afterwards.
 */
@StartsNetnsClusters
class NetnsEnergyBenchTest {
  private static final File WORK = new File("target/test-clusters/energy-bench")
      .getAbsoluteFile();

  @Test
  void bothSetUpsAreMeasuredOnNetnsClustersAndNothingIsLeft() throws Exception {
    File out = new File(WORK, "out");
    File nativeCluster = new File(out, "cluster-native");
    File energyCluster = new File(out, "cluster-energy");
    NetnsResources.freshWorkDirectory(WORK, nativeCluster);
    NetnsResources.down(energyCluster);

    CliRun run = CliRun.inProcess("bench", "energy", "--cluster", "netns", "--files", "2",
        "--write-files", "1", "--file-kib", "512", "--block-kib", "256", "--rounds", "1",
        "--setups", "energy", "--swim-hours", "0.02", "--swim-compress", "10", "--out",
        out.getPath());

    assertEquals(0, run.exitCode(), run.toString());
    List<String> rounds = Files.readAllLines(new File(out, "rounds.csv").toPath());
    assertEquals(1 + 2 * 3, rounds.size(), "header + 2 set-ups x 3 workloads:\n" + rounds);
    assertEquals(2, rounds.stream().filter(l -> l.contains(",SWIM FB-2009 replay (mixed),"))
        .count(), "the replay measured in both set-ups:\n" + rounds);
    for (String line : rounds.subList(1, rounds.size())) {
      String[] f = line.split(",");
      assertTrue(Long.parseLong(f[3]) > 0, "wall time measured: " + line);
      assertTrue(Double.parseDouble(f[5]) > 0, "disk energy read over /jmx: " + line);
      if (f[1].equals("native")) {
        assertEquals("0", f[6], "native backups are never spun down, so never up: " + line);
        assertEquals(0.0, Double.parseDouble(f[7]), "and never in standby: " + line);
      }
    }
    String report = Files.readString(new File(out, "report.md").toPath());
    assertTrue(report.contains("replays the 1 job FB-2009 submitted in its first 0.02 h"),
        report);
    assertTrue(report.contains("--cluster netns") && report.contains("stock Hadoop daemons as"
        + " processes"), report);
    for (String row : List.of("| WordCount (read-intensive) | energy-efficient, fixed timeout |",
        "| corpus write (write-heavy) | native HDFS (all disks active) |",
        "| SWIM FB-2009 replay (mixed) | energy-efficient, fixed timeout |")) {
      assertTrue(report.contains(row), row + " in\n" + report);
    }
    for (File dir : List.of(nativeCluster, energyCluster)) {
      Map<String, List<String>> left = NetnsResources.of(dir);
      assertTrue(NetnsResources.none(left), dir + " left " + left);
    }
  }

  @Test
  void anUnknownClusterKindIsRefusedBeforeAnyClusterStarts() {
    CliRun run = CliRun.inProcess("bench", "energy", "--cluster", "docker", "--out",
        new File(WORK, "refused").getPath());
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains("--cluster must be embedded or netns, got 'docker'"),
        run.err());
  }
}
