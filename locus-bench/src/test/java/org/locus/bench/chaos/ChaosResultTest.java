package org.locus.bench.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** How a chaos run is judged, and how an {@code fsck} report is read. */
class ChaosResultTest {
  private static final String HEALTHY = String.join("\n",
      "Status: HEALTHY",
      " Number of data-nodes:\t3",
      " Total blocks (validated):\t41 (avg. block size 123 B)",
      " Under-replicated blocks:\t0 (0.0 %)",
      " Missing blocks:\t\t0",
      " Corrupt blocks:\t\t0",
      "",
      "The filesystem under path '/' is HEALTHY");

  @Test
  void aHealthyReportReadsAsHealthyWithItsCounts() {
    ChaosResult.Fsck fsck = ChaosBench.parseFsck(HEALTHY, 0);
    assertTrue(fsck.healthy());
    assertEquals(0, fsck.missing());
    assertEquals(0, fsck.corrupt());
    assertEquals(0, fsck.underReplicated());
  }

  @Test
  void aCorruptReportOrAFailedFsckIsNotHealthy() {
    String corrupt = HEALTHY.replace("Status: HEALTHY", "Status: CORRUPT")
        .replace("Missing blocks:\t\t0", "Missing blocks:\t\t2")
        .replace("is HEALTHY", "is CORRUPT");
    ChaosResult.Fsck fsck = ChaosBench.parseFsck(corrupt, 1);
    assertFalse(fsck.healthy());
    assertEquals(2, fsck.missing());
    assertFalse(ChaosBench.parseFsck(HEALTHY, 1).healthy(), "fsck's exit code counts too");
  }

  @Test
  void theVerdictNamesEveryProblem() {
    ChaosSettings settings = null;
    ChaosSchedule schedule = new ChaosSchedule(1, List.of(
        new ChaosSchedule.Fault(1000, "node1", "datanode", 500)));
    List<FaultInjector.Event> killed = List.of(
        new FaultInjector.Event(1000, "node1", "datanode", "killed", "pid 1"),
        new FaultInjector.Event(1500, "node1", "datanode", "restarted", "pid 2"));
    CheckedJob right = new CheckedJob("wordcount-1", "wordcount", 0, 10, true, true, true, "");
    ChaosResult.Fsck healthy = ChaosBench.parseFsck(HEALTHY, 0);
    ChaosResult ok = new ChaosResult(settings, schedule, killed, List.of(right), List.of(),
        healthy, List.of(), 2000);
    assertTrue(ok.passed(), ok.problems().toString());
    assertEquals(1, ok.kills());

    CheckedJob wrong = new CheckedJob("wordcount-2", "wordcount", 0, 10, true, true, false,
        "wrong counts (w1: counted 3, written 4)");
    CheckedJob silent = new CheckedJob("job7", "swim", 0, 10, false, false, false, "");
    ChaosResult bad = new ChaosResult(settings, schedule, List.of(), List.of(wrong, silent),
        List.of(), ChaosBench.parseFsck(HEALTHY.replace("Corrupt blocks:\t\t0",
            "Corrupt blocks:\t\t1"), 0), List.of(), 2000);
    assertEquals(List.of("no fault was carried out (run longer than --kill-every plus the down"
        + " time)", "fsck: HEALTHY, 0 missing, 1 corrupt blocks",
        "wordcount-2 counted wrong: wrong counts (w1: counted 3, written 4)",
        "job7 failed without a reason"), bad.problems());
  }
}
