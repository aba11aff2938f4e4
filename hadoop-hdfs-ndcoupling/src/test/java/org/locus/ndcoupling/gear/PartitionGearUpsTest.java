package org.locus.ndcoupling.gear;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Every partition's gear-up seen as one: sums, the longest step, done only when all are. */
class PartitionGearUpsTest {
  private static GearUpReport report(String state, int blocks, long... steps) {
    return new GearUpReport(state, 4, "batch", "batch", "n2", blocks, blocks, blocks,
        100L * blocks, steps, blocks, 0, 1, "");
  }

  @Test
  void partitionsRunSideBySideSoEachStepIsTheLongestAndCountsAdd() {
    Map<String, GearUpReport> reports = new LinkedHashMap<>();
    reports.put("ns1", report("done", 10, 3, 1, 900, 20));
    reports.put("ns3", report("done", 30, 1, 4, 1200, 5));
    GearUpReport all = new PartitionGearUps(reports, 1300).combined();
    assertEquals("done", all.state());
    assertEquals(40, all.blocks());
    assertEquals(4000, all.metadataBytes());
    assertEquals(2, all.connections());
    assertArrayEquals(new long[] {3, 4, 1200, 20}, all.stepMillis());
  }

  @Test
  void oneFailedOrRunningPartitionDecidesTheState() {
    Map<String, GearUpReport> reports = new LinkedHashMap<>();
    reports.put("ns1", report("done", 1, 0, 0, 0, 0));
    reports.put("ns2", report("failed", 1, 0, 0, 0, 0));
    assertEquals("failed", new PartitionGearUps(reports, 0).combined().state());
    reports.put("ns3", report("running", 1, 0, 0, 0, 0));
    assertEquals("running", new PartitionGearUps(reports, 0).combined().state());
  }

  @Test
  void oneNameNodesReportIsItsOwn() {
    GearUpReport only = report("done", 5, 1, 2, 3, 4);
    assertSame(only, new PartitionGearUps(Map.of("namenode", only), 10).combined());
  }
}
