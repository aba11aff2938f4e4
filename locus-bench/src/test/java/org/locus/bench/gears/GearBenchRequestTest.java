package org.locus.bench.gears;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * What {@code locus bench gears} accepts and refuses before any cluster starts, and how its
 * report shows the index's step 1 of whole nodes switched off.
 */
class GearBenchRequestTest {
  private static GearBenchRequest request(String configs, int nodes, boolean wholeNodes) {
    return new GearBenchRequest(GearBenchConfig.parse(configs), 1, 0, nodes, 40, 65_536, 2,
        wholeNodes, 0, 0, 1L << 30, 30, 8, Map.of(), new File("target/gears-request"),
        new File("."));
  }

  @Test
  void wholeNodesRunFbbNowThatIndexNodesHaveCopies() {
    GearBenchRequest request = request("normal,sbb,fbb", 4, true);
    assertTrue(request.wholeNodes());
    assertEquals(List.of("normal", "sbb", "fbb"),
        request.configs().stream().map(GearBenchConfig::name).toList());
  }

  @Test
  void wholeNodesOnFewerThanThreeNodesAreStillRefusedFbbOrNot() {
    for (String configs : List.of("fbb", "sbb")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> request(configs, 2, true), configs);
      assertTrue(e.getMessage().contains("--whole-nodes needs at least 3 nodes")
          && e.getMessage().contains("got 2"), e.getMessage());
    }
    assertFalse(request("fbb", 2, false).wholeNodes(), "DataNodes only: two nodes do");
  }

  private static GearRun run(String config, int run, int indexPages, long indexBytes) {
    return new GearRun(config, run, 40, 20, new long[] {120, 5, 900, 30}, 1_100, 30_000,
        4_000, 4, 4, Map.of("node1", 1_000_000L, "node2", 10L), true, indexPages, indexBytes);
  }

  @Test
  void theReportShowsTheIndexPagesShippedAtStepOneAndADashWithoutIndexCopies() {
    Map<String, List<GearRun>> byConfig = new LinkedHashMap<>();
    byConfig.put("sbb", List.of(run("sbb", 1, -1, -1)));
    byConfig.put("fbb", List.of(run("fbb", 1, 10, 4_096), run("fbb", 2, 20, 8_192)));

    String md = GearBenchReport.markdown(request("sbb,fbb", 4, true), byConfig);

    assertTrue(md.contains("| step 1 share | index step 1 pages / KB (mean) | connections per"
        + " block |"), md);
    String fbb = md.lines().filter(l -> l.startsWith("| fbb |")).findFirst().orElseThrow();
    assertTrue(fbb.contains("| 15 / 6.0 |"), fbb);
    String sbb = md.lines().filter(l -> l.startsWith("| sbb |")).findFirst().orElseThrow();
    assertTrue(sbb.contains("| - |"), sbb);
    String header = md.lines().filter(l -> l.startsWith("| configuration |")).findFirst()
        .orElseThrow();
    assertEquals(header.split("\\|").length, fbb.split("\\|").length, "a cell per column");
    assertTrue(GearBenchReport.json(List.of(run("fbb", 1, 10, 4_096)))
        .contains("\"indexPages\": 10, \"indexBytes\": 4096"));
  }
}
