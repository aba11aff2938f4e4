package org.locus.bench.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.locus.bench.energy.EnergyBench.Measurement;
import org.locus.bench.energy.EnergyBenchCluster.Setup;

/**
 * The energy report's sentence on write off-loading's deferred move: the move carries the
 * replicas every workload staged, so it is set against all of them on native HDFS, not against
 * the write job alone.
 */
class MoveSectionTest {

  @Test
  void theMoveIsSetAgainstEveryWorkloadThatStagedReplicas() {
    Map<String, Map<Setup, Measurement>> byWorkload = new LinkedHashMap<>();
    put(byWorkload, EnergyBench.READ_INTENSIVE, 4000, 1400);
    put(byWorkload, EnergyBench.WRITE_HEAVY, 2000, 600);
    put(byWorkload, EnergyBench.MIXED, 24000, 9000);
    byWorkload.computeIfAbsent(EnergyBench.MOVE_STAGED, k -> new EnumMap<>(Setup.class))
        .put(Setup.OFFLOAD, new Measurement(Setup.OFFLOAD, EnergyBench.MOVE_STAGED, 11_300, 0,
            2400, 3, 0.05));

    String text = EnergyReport.moveSection(byWorkload);

    // (1400 + 600 + 9000 + 2400) / (4000 + 2000 + 24000) and (1400 + 600 + 9000) / 30000
    assertTrue(text.contains("11.3 s and 2400 J of disk energy with 3 backup spin-ups"), text);
    assertTrue(text.contains("The workloads (WordCount, write job, SWIM replay) and the move"
        + " together: 13400 J, **0.447** of the same workloads' disk energy on native HDFS"
        + " (the workloads alone 0.367)"), text);
  }

  @Test
  void withoutWriteOffloadingThereIsNoSentence() {
    Map<String, Map<Setup, Measurement>> byWorkload = new LinkedHashMap<>();
    put(byWorkload, EnergyBench.WRITE_HEAVY, 2000, 600);
    assertEquals("", EnergyReport.moveSection(byWorkload));
  }

  private static void put(Map<String, Map<Setup, Measurement>> byWorkload, String workload,
      double nativeJoules, double offloadJoules) {
    Map<Setup, Measurement> setups = byWorkload.computeIfAbsent(workload,
        k -> new EnumMap<>(Setup.class));
    setups.put(Setup.NATIVE, new Measurement(Setup.NATIVE, workload, 60_000, 0, nativeJoules, 0,
        0));
    setups.put(Setup.OFFLOAD, new Measurement(Setup.OFFLOAD, workload, 60_000, 0, offloadJoules,
        0, 1));
  }
}
