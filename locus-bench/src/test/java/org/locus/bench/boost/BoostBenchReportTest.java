package org.locus.bench.boost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.locus.bench.report.ResultsFile;
import org.locus.bench.run.RunRecord;

/**
 * The BoostDFS report on made-up results: ratios of mean wall times, map shares summed over
 * runs, failed runs left out, and the geometric mean over the disk-bound jobs only.
 */
class BoostBenchReportTest {
  private static RunRecord run(String job, String layout, int run, long millis, long maps,
      long local, boolean ok) {
    Map<String, Long> counters = new HashMap<>();
    counters.put("TOTAL_LAUNCHED_MAPS", maps);
    // k-means keeps 1.5 cores busy, every other job a quarter of one
    counters.put("CPU_MILLISECONDS", job.equals("k-means") ? millis * 3 / 2 : millis / 4);
    counters.put(layout.equals("boost") ? "SUPERLOCAL_MAPS" : "DATA_LOCAL_MAPS", local);
    return new RunRecord(job, layout, run, ok, millis, false, counters, Map.of());
  }

  @Test
  void ratiosSharesAndTheDiskBoundGeometricMean() {
    List<String> jobs = List.of("grep", "wordcount", "k-means");
    ResultsFile results = new ResultsFile("puma-small", "netns", List.of("hdfs", "boost"), 2,
        jobs);
    results.add(run("grep", "hdfs", 1, 10_000, 8, 6, true));
    results.add(run("grep", "hdfs", 2, 12_000, 8, 8, true));
    results.add(run("grep", "boost", 1, 8_000, 8, 7, true));
    results.add(run("grep", "boost", 2, 8_800, 8, 8, true));
    results.add(run("wordcount", "hdfs", 1, 20_000, 4, 4, true));
    results.add(run("wordcount", "boost", 1, 20_000, 4, 2, true));
    // a failed run counts for nothing
    results.add(run("wordcount", "boost", 2, 1_000, 4, 4, false));
    results.add(run("k-means", "hdfs", 1, 30_000, 4, 4, true));
    results.add(run("k-means", "boost", 1, 60_000, 4, 4, true));
    BoostBenchReport report = new BoostBenchReport(results);

    assertEquals(8_400.0 / 11_000, report.ratio("grep").getAsDouble(), 1e-9);
    assertEquals(1.0, report.ratio("wordcount").getAsDouble(), 1e-9);
    assertEquals(14.0 / 16, report.mapShare("grep", "hdfs", "DATA_LOCAL_MAPS").getAsDouble(),
        1e-9);
    assertEquals(0.5, report.mapShare("wordcount", "boost", "SUPERLOCAL_MAPS").getAsDouble(),
        1e-9);
    double geomean = Math.sqrt(8_400.0 / 11_000 * 1.0);
    assertEquals(geomean, report.geomean(List.of("grep", "wordcount")).getAsDouble(), 1e-9);
    assertFalse(report.ratio("teragen").isPresent());
    assertFalse(report.ratioInterval("wordcount").isPresent(), "one successful boost run");

    String table = report.table(jobs);
    assertEquals(0.25, report.cpuPerSecond("grep", "hdfs").getAsDouble(), 1e-9);
    assertEquals(1.5, report.cpuPerSecond("k-means", "hdfs").getAsDouble(), 1e-9);
    assertTrue(table.contains(
        "| grep | disk-bound | 0.25 | 11.0 | 8.4 | 0.764 | 0.414–1.408 | 88 % | 94 % |"), table);
    // one successful run per layout: no spread to go by
    assertTrue(table.contains("| k-means | compute-bound | 1.50 | 30.0 | 60.0 | 2.000 | n/a |"),
        table);
    assertTrue(table.contains(String.format("**%.3f**", geomean)),
        "k-means stays out of the disk-bound mean:\n" + table);
  }

  @Test
  void theRatioIntervalNarrowsWithMoreRunsOfTheSameSpread() {
    // each layout's runs at mean ± 10 %: with 2 runs the interval is wide, with 8 narrow
    ResultsFile few = new ResultsFile("puma", "netns", List.of("hdfs", "boost"), 2,
        List.of("grep"));
    ResultsFile many = new ResultsFile("puma", "netns", List.of("hdfs", "boost"), 8,
        List.of("grep"));
    for (int r = 1; r <= 8; r++) {
      long hdfs = r % 2 == 0 ? 11_000 : 9_000;
      long boost = r % 2 == 0 ? 8_800 : 7_200;
      if (r <= 2) {
        few.add(run("grep", "hdfs", r, hdfs, 8, 8, true));
        few.add(run("grep", "boost", r, boost, 8, 8, true));
      }
      many.add(run("grep", "hdfs", r, hdfs, 8, 8, true));
      many.add(run("grep", "boost", r, boost, 8, 8, true));
    }
    double[] wide = new BoostBenchReport(few).ratioInterval("grep").orElseThrow();
    double[] narrow = new BoostBenchReport(many).ratioInterval("grep").orElseThrow();
    // symmetric around 0.8 on a log scale
    assertEquals(0.8, Math.sqrt(wide[0] * wide[1]), 1e-9);
    assertEquals(0.8, Math.sqrt(narrow[0] * narrow[1]), 1e-9);
    assertTrue(wide[0] < narrow[0] && narrow[1] < wide[1], "8 runs narrow the interval");
    // 8 runs each: relative standard error of each mean 0.1 * sqrt(8/7) / sqrt(8), df = 14
    double half = 2.1447866879 * Math.sqrt(2 * 0.01 * 8 / 7 / 8);
    assertEquals(0.8 * Math.exp(half), narrow[1], 1e-6);
  }
}
