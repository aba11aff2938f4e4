package org.locus.bench.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spin-down bench on one-hour traces: every policy on every trace in the report, the CSV
 * and the chart beside it, the report also on the output stream. About a second.
 */
class SpinDownBenchTest {
  @Test
  void writesOneRowPerTraceAndPolicyAndTheChart(@TempDir Path tmp) throws Exception {
    File dir = new File(tmp.toFile(), "spindown");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    new SpinDownBench(new SpinDownBench.Request(1, 1, dir)).run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String report = Files.readString(new File(dir, "report.md").toPath());
    assertTrue(report.startsWith("# Spin-down policies on backup-disk access traces"), report);
    assertTrue(report.contains("`bin/locus bench spindown --hours 1 --seed 1`"), report);
    List<String> rows = report.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| trace"))
        .toList();
    assertEquals(3 * 5, rows.size(), report);
    List<String> csv = Files.readAllLines(new File(dir, "energy.csv").toPath());
    assertEquals(1 + 3 * 5, csv.size(), String.join("\n", csv));
    assertTrue(Files.readString(new File(dir, "energy.svg").toPath()).startsWith("<svg"));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.startsWith(report), printed);
    assertTrue(printed.endsWith("report: " + new File(dir, "report.md") + "\n"), printed);
    assertEquals(3, err.toString(StandardCharsets.UTF_8).lines()
        .filter(l -> l.startsWith("[bench spindown] ")).count());
  }
}
