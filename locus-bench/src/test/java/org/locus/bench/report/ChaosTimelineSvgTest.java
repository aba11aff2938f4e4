package org.locus.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.bench.chaos.ChaosResult;
import org.locus.bench.chaos.ChaosSchedule;
import org.locus.bench.chaos.CheckedJob;
import org.locus.bench.chaos.FaultInjector;
import org.locus.bench.chaos.HealthSampler;

/** The chaos picture: each kill drawn until its restart, each job, the under-replicated line. */
class ChaosTimelineSvgTest {
  private static FaultInjector.Event event(long at, String node, String role, String action) {
    return new FaultInjector.Event(at, node, role, action, "pid 1");
  }

  @Test
  void eachKillIsPairedWithTheRestartOfTheSameDaemon() {
    List<ChaosTimelineSvg.Outage> outages = ChaosTimelineSvg.outages(List.of(
        event(1000, "node1", "datanode", "killed"),
        event(2000, "node2", "nodemanager", "not running"),
        event(3000, "node1", "datanode", "restarted"),
        event(4000, "node3", "nodemanager", "killed")), 9000);
    assertEquals(List.of(new ChaosTimelineSvg.Outage("node1", "datanode", 1000, 3000),
        new ChaosTimelineSvg.Outage("node3", "nodemanager", 4000, 9000)), outages,
        "a kill not followed by its restart lasts to the end");
  }

  @Test
  void thePictureHoldsOneBarPerOutageAndJobAndTheLine(@TempDir Path tmp) throws Exception {
    ChaosResult result = new ChaosResult(null, new ChaosSchedule(1, List.of()), List.of(
        event(60_000, "node2", "datanode", "killed"),
        event(90_000, "node2", "datanode", "restarted")), List.of(
        new CheckedJob("wordcount-1", "wordcount", 0, 50_000, true, true, true, ""),
        new CheckedJob("job1", "swim", 10_000, 70_000, false, false, false, "Task failed")),
        List.of(new HealthSampler.Sample(55_000, 0, 0, 0, 3),
            new HealthSampler.Sample(95_000, 12, 0, 0, 3)),
        new ChaosResult.Fsck(true, 0, 0, 0, ""), List.of(), 120_000);
    Path svg = tmp.resolve("timeline.svg");
    ChaosTimelineSvg.write(svg, result, 3);
    String text = Files.readString(svg);
    assertEquals(1, text.split("class=\"outage\"", -1).length - 1, text);
    assertEquals(2, text.split("class=\"job\"", -1).length - 1, text);
    assertTrue(text.contains("node2 datanode down 30 s"), text);
    assertTrue(text.contains("job1: Task failed"), text);
    assertTrue(text.contains("<polyline class=\"under\""), text);
  }
}
