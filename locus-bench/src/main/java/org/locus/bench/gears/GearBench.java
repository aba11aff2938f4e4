package org.locus.bench.gears;

import java.io.File;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.locus.netns.MetadataLayout;

/**
 * {@code locus bench gears} (seed 004 §5.1, Table 1): on netns clusters, each run shifts to the
 * low gear (half the nodes off), writes many one-block files, shifts up and measures how long
 * the returning nodes take to hold their share. The configurations of a knob set take turns,
 * the order reversed every other run, so drift of the host falls on all of them alike: those
 * with one NameNode on one cluster, those on coupled nodes (SSS, SBS, SBB and FBB) on a second
 * cluster of the same size that is up at the same time.
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
      // One cluster per metadata layout of this knob set, all up together, so that the
      // configurations of both layouts take turns run by run.
      Map<Boolean, GearBenchCluster> clusters = new LinkedHashMap<>();
      try {
        // The coupled configurations share one cluster; with FBB among them it also hosts the
        // Fat-Btree index, which the SDP configurations' clients simply do not use.
        boolean indexed = knobs.getValue().stream().anyMatch(GearBenchConfig::indexed);
        for (GearBenchConfig config : knobs.getValue()) {
          if (!clusters.containsKey(config.coupled())) {
            MetadataLayout layout = !config.coupled() ? MetadataLayout.MASTER
                : indexed ? MetadataLayout.FATBTREE : MetadataLayout.SDP;
            String name = knobs.getKey() + (config.coupled() ? "-" + layout.word() : "");
            File dir = new File(request.out(), "cluster-" + name);
            err.printf("gears bench: %d-node netns cluster (%s metadata) with the %s knobs in"
                + " %s%n", request.nodes(), layout.word(), knobs.getKey(), dir);
            clusters.put(config.coupled(), new GearBenchCluster(knobs.getKey(), layout, dir,
                request, err));
          }
        }
        int count = knobs.getKey().equals("stock") ? request.stockRuns() : request.runs();
        for (int run = 1; run <= count; run++) {
          List<GearBenchConfig> order = new ArrayList<>(knobs.getValue());
          if (run % 2 == 0) {
            java.util.Collections.reverse(order);
          }
          for (GearBenchConfig config : order) {
            GearRun result = clusters.get(config.coupled()).cycle(config, run);
            runs.add(result);
            err.printf("  %-13s run %d: %d blocks reflected in %.1f s (steps %s ms),"
                + " %.2f connections per block%n", config.name(), run, result.blocks(),
                result.reflectionMillis() / 1000.0, java.util.Arrays.toString(
                    result.stepMillis()), result.connectionsPerBlock());
            GearBenchReport.write(request, runs);
          }
        }
      } finally {
        for (GearBenchCluster cluster : clusters.values()) {
          cluster.close();
        }
      }
    }
    return GearBenchReport.write(request, runs);
  }
}
