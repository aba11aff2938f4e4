package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.Test;

/**
 * {@code zonectl/bench/hadoop} (docs/zone.md) end to end, as small as it goes: one run of the
 * job-aware strategy, three Hadoop jobs (map-, shuffle-, reduce-heavy) on an embedded cluster
 * living on a fresh 256 MiB emulated zoned disk, with the zone hook in its NodeManager. Every job
 * succeeds, the hook sets an area for each and never fails, e2fsck finds the disk clean after
 * the run, and Hadoop's log goes to the log file, not the terminal. Needs root (loop device,
 * mount, FUSE); about two minutes.
 */
class ZoneBenchHadoopTest {
  private static final File OUT = new File("target/zone-bench-hadoop").getAbsoluteFile();

  @Test
  void oneRunOfTheJobAwareStrategyRunsEveryJobAndLeavesTheDiskClean() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(NetnsResources.root(),
        "loop devices, mounts and FUSE need root");
    File root = new File("..").getCanonicalFile();
    FileUtil.fullyDelete(OUT);
    File console = new File(OUT.getParentFile(), "zone-bench-hadoop.console");
    ProcessBuilder builder = new ProcessBuilder(new File(root, "zonectl/bench/hadoop").getPath(),
        "--size", "256M", "--outer-mbps", "20", "--groups", "3", "--runs",
        "1", "--strategies", "proposed", "--cache", "64M", "--out", OUT.getPath())
        .directory(root).redirectErrorStream(true).redirectOutput(console);
    builder.environment().put("LOCUS_CLASSPATH", System.getProperty("java.class.path"));
    builder.environment().put("LOCUS_JAVA_OPTS", "-Xmx1g -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    Process bench = builder.start();
    if (!bench.waitFor(15, TimeUnit.MINUTES)) {
      bench.destroyForcibly();
    }
    String terminal = Files.readString(console.toPath(), StandardCharsets.UTF_8);
    assertEquals(0, bench.exitValue(), terminal);

    List<String> jobs = Files.readAllLines(new File(OUT, "bench-zone-hadoop.tsv").toPath());
    assertEquals(List.of("proposed map-heavy-0 ok", "proposed shuffle-heavy-1 ok",
        "proposed reduce-heavy-2 ok"), jobs.stream().skip(1).map(l -> l.split("\t"))
            .map(c -> c[0] + " " + c[2] + " " + c[5]).toList(), terminal);

    String row = Files.readAllLines(new File(OUT, "bench-zone-hadoop.md").toPath()).stream()
        .filter(l -> l.startsWith("| proposed |")).findFirst().orElseThrow();
    List<String> cells = Arrays.stream(row.split("\\|")).map(String::trim).toList();
    assertEquals("0", cells.get(6), "failed jobs: " + row);
    String[] hook = cells.get(11).split("/");
    assertEquals("3", hook[0], "one switch per job (each starts on an idle node): " + row);
    assertEquals("0", hook[2], "hook failures: " + row);
    assertEquals("clean", cells.get(12), "e2fsck -fn after the run: " + row);

    File log = new File(OUT, "logs/run1-proposed.log");
    String hadoopLog = Files.readString(log.toPath(), StandardCharsets.UTF_8);
    assertTrue(hadoopLog.contains("JobAwareZoneService"), "the hook logged to " + log);
    assertFalse(terminal.contains(" INFO "), "Hadoop's log stays off the terminal:\n"
        + terminal);
  }
}
