package org.locus.bench.lowpower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The low-power report on made-up samples: a row's ratio is to the stock row of the same round
 * (not to stock's mean), rounds without a stock sample are left out, and a row with no stock
 * counterpart reads n/a.
 */
class LowpowerBenchReportTest {
  private static final long MIB64 = 64L << 20;

  private static ProbeSample sample(String setting, int r, int round, double writeSeconds,
      long stored) {
    return new ProbeSample(setting, r, round, (long) (writeSeconds * 1e9), 1_000_000_000L,
        500_000_000L, 100_000_000L, 1_500_000_000L, 200_000_000L, stored, MIB64);
  }

  @Test
  void ratiosAreToTheStockRowOfTheSameRound() {
    List<ProbeSample> samples = List.of(
        sample("stock", 1, 1, 4.0, MIB64), sample("direct-io", 1, 1, 2.0, MIB64),
        // round 2: the host was slower for both; the ratio is the same
        sample("stock", 1, 2, 8.0, MIB64), sample("direct-io", 1, 2, 4.0, MIB64),
        // round 3 has no stock sample: left out of the ratio, kept in the mean
        sample("direct-io", 1, 3, 1.0, MIB64),
        sample("lz4-output", 3, 1, 2.0, MIB64 / 2));
    LowpowerBenchReport report = new LowpowerBenchReport(samples,
        LowpowerSetting.all(false), List.of(1, 3));

    assertEquals(2.0, report.ratioToStock("direct-io", 1, ProbeSample::writeMBps)
        .getAsDouble(), 1e-9);
    assertEquals(1.0, report.ratioToStock("stock", 1, ProbeSample::writeMBps).getAsDouble(),
        1e-9);
    double mean = (MIB64 / 1e6) * (1 / 2.0 + 1 / 4.0 + 1 / 1.0) / 3;
    assertEquals(mean, report.mean("direct-io", 1, ProbeSample::writeMBps).getAsDouble(), 1e-9);
    assertFalse(report.ratioToStock("lz4-output", 3, ProbeSample::writeMBps).isPresent(),
        "no stock sample at r=3");

    String table = report.table();
    assertTrue(table.contains("| 1 | direct-io | " + String.format("%.1f", mean) + " | 2.00 |"),
        table);
    assertTrue(table.contains("| 3 | lz4-output | 33.6 | n/a |"), table);
    assertTrue(table.contains("| 0.50 |\n"), "stored / written of the LZ4 row:\n" + table);
    assertTrue(table.contains("| 3 | checksum-4096 | n/a |"), table);
  }

  @Test
  void theChartHasABarPerRowAndGroup(@TempDir Path tmp) throws Exception {
    LowpowerBenchReport report = new LowpowerBenchReport(List.of(
        sample("stock", 1, 1, 4.0, MIB64), sample("checksum-4096", 1, 1, 2.0, MIB64)),
        LowpowerSetting.all(true), List.of(1));
    Path svg = tmp.resolve("chart.svg");
    report.chart(svg);
    String text = Files.readString(svg);
    assertTrue(text.startsWith("<svg") || text.startsWith("<?xml"), text);
    for (String label : List.of("stock", "direct-io", "checksum-4096", "lz4-output",
        "lzo-output", "write r=1", "read r=1")) {
      assertTrue(text.contains(label), label + " in the chart");
    }
  }
}
