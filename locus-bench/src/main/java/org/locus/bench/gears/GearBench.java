package org.locus.bench.gears;

import java.io.File;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code locus bench gears} (seed 004 §5.1, the one-NameNode configurations): on a netns
 * cluster per knob set, each run shifts to the low gear (half the nodes off), writes many
 * one-block files, shifts up and measures how long the returning nodes take to hold their share.
 * The configurations of a knob set share one cluster and take turns, the order reversed every
 * other run, so drift of the host falls on all of them alike.
 */
public final class GearBench {
  private final GearBenchRequest request;
  private final PrintStream err;

  public GearBench(GearBenchRequest request, PrintStream err) {
    this.request = request;
    this.err = err;
  }

  /** Runs every configuration and writes the report; returns its file. */
  public File run() throws Exception {
    Map<String, List<GearBenchConfig>> byKnobs = new LinkedHashMap<>();
    for (GearBenchConfig config : request.configs()) {
      byKnobs.computeIfAbsent(config.knobs(), k -> new ArrayList<>()).add(config);
    }
    List<GearRun> runs = new ArrayList<>();
    for (Map.Entry<String, List<GearBenchConfig>> knobs : byKnobs.entrySet()) {
      File dir = new File(request.out(), "cluster-" + knobs.getKey());
      err.printf("gears bench: %d-node netns cluster with the %s knobs in %s%n",
          request.nodes(), knobs.getKey(), dir);
      try (GearBenchCluster cluster = new GearBenchCluster(knobs.getKey(), dir, request, err)) {
        int count = knobs.getKey().equals("stock") ? request.stockRuns() : request.runs();
        for (int run = 1; run <= count; run++) {
          List<GearBenchConfig> order = new ArrayList<>(knobs.getValue());
          if (run % 2 == 0) {
            java.util.Collections.reverse(order);
          }
          for (GearBenchConfig config : order) {
            GearRun result = cluster.cycle(config, run);
            runs.add(result);
            err.printf("  %-13s run %d: %d blocks reflected in %.1f s (steps %s ms),"
                + " %.2f connections per block%n", config.name(), run, result.blocks(),
                result.reflectionMillis() / 1000.0, java.util.Arrays.toString(
                    result.stepMillis()), result.connectionsPerBlock());
            GearBenchReport.write(request, runs);
          }
        }
      }
    }
    return GearBenchReport.write(request, runs);
  }
}
