package org.locus.bench.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ratios to stock on made-up samples: process CPU time moves in clock ticks, so a small run
 * can measure 0 ms; a stock configuration is still its own reference (1.00), and a ratio over
 * a stock value of 0 is left out, or "n/a" (null in the JSON) when no round has one.
 */
class ChecksumBenchReportTest {
  @TempDir
  File tmp;

  @Test
  void aStockValueOfZeroGivesNoRatioButTheStockRowStaysOne() throws Exception {
    ChecksumBenchRequest request = ChecksumBenchRequest.parse(Map.of(
        "bytes-per-checksum", "512,4096", "write-sizes", "100", "replication", "1",
        "mib", "1", "rounds", "2", "out", tmp.getPath()));
    ChecksumSetting stock = new ChecksumSetting(1, 100, 0, 512);
    ChecksumSetting chunk = new ChecksumSetting(1, 100, 0, 4096);
    Map<ChecksumSetting, List<ChecksumSample>> samples = new LinkedHashMap<>();
    // round 1: stock read CPU 0 (below a tick), round 2: 10 ms; write CPU never 0
    samples.put(stock, List.of(new ChecksumSample(1, 1_000_000, 20_000_000, 1_000_000, 0, 512),
        new ChecksumSample(2, 1_000_000, 20_000_000, 1_000_000, 0, 512)));
    samples.put(chunk, List.of(new ChecksumSample(1, 1_000_000, 10_000_000, 1_000_000,
        10_000_000, 4096), new ChecksumSample(2, 1_000_000, 30_000_000, 1_000_000, 0, 4096)));

    String report = new ChecksumBenchReport(request, "made-up samples", samples).write(tmp);

    List<List<String>> rows = report.lines().filter(l -> l.startsWith("  1 "))
        .map(l -> List.of(l.trim().split(" {2,}"))).toList();
    assertEquals(List.of("1.00", "1.00", "1.00", "1.00"), rows.get(0).subList(8, 12), report);
    assertEquals("1.00 (0.50-1.50)", rows.get(1).get(9), "write CPU over both rounds\n" + report);
    assertEquals("n/a", rows.get(1).get(11), "read CPU: stock measured 0 in every round\n"
        + report);
    assertTrue(report.contains("n/a: the stock run's CPU time was below the clock's"
        + " resolution"), report);
    JsonNode readCpu = new ObjectMapper().readTree(new File(tmp, ChecksumBenchReport.RESULTS))
        .path("configurations").path(1).path("vsStock").path("readCpu");
    assertTrue(readCpu.path("median").isNull(), readCpu.toString());
  }
}
