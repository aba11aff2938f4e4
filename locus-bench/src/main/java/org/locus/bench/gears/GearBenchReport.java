package org.locus.bench.gears;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.locus.bench.report.BarChartSvg;
import org.locus.energy.disk.DiskPowerProfile;

/**
 * The gear bench's report: {@code results.json} (every run), {@code report.md} (the table, the
 * ratios against NormalHDFS, the modelled energy of a day in gears) and {@code reflection.svg}.
 */
final class GearBenchReport {
  private GearBenchReport() {
  }

  static File write(GearBenchRequest request, List<GearRun> runs) throws IOException {
    File dir = request.out();
    Files.createDirectories(dir.toPath());
    Files.writeString(new File(dir, "results.json").toPath(), json(runs),
        StandardCharsets.UTF_8);
    Map<String, List<GearRun>> byConfig = new LinkedHashMap<>();
    for (GearBenchConfig config : request.configs()) {
      List<GearRun> of = runs.stream().filter(r -> r.config().equals(config.name())).toList();
      if (!of.isEmpty()) {
        byConfig.put(config.name(), of);
      }
    }
    List<String> names = new ArrayList<>(byConfig.keySet());
    double[][] seconds = new double[1][names.size()];
    for (int c = 0; c < names.size(); c++) {
      seconds[0][c] = mean(byConfig.get(names.get(c)), r -> r.reflectionMillis()) / 1000.0;
    }
    if (!names.isEmpty()) {
      BarChartSvg.write(new File(dir, "reflection.svg").toPath(),
          "Gear-up reflection, " + request.files() + " one-block files, " + request.nodes()
              + " nodes (" + request.nodes() / 2 + " -> " + request.nodes() + ")",
          "seconds (mean of runs)", names, List.of("reflection"), seconds);
    }
    File report = new File(dir, "report.md");
    Files.writeString(report.toPath(), markdown(request, byConfig), StandardCharsets.UTF_8);
    return report;
  }

  private interface Field {
    double of(GearRun run);
  }

  private static double mean(List<GearRun> runs, Field field) {
    return runs.stream().mapToDouble(field::of).average().orElse(0);
  }

  private static String range(List<GearRun> runs, Field field, double scale) {
    double min = runs.stream().mapToDouble(field::of).min().orElse(0) / scale;
    double max = runs.stream().mapToDouble(field::of).max().orElse(0) / scale;
    return String.format("%.1f-%.1f", min, max);
  }

  static String markdown(GearBenchRequest request, Map<String, List<GearRun>> byConfig) {
    StringBuilder md = new StringBuilder();
    md.append("# Gear-up reflection (seed 004 §5.1, Table 1)\n\n");
    md.append(String.format("Scale: %d netns nodes, low gear %d on, %d one-block files of %d"
        + " bytes written in low gear per run (replication %d), %d runs per configuration with"
        + " the seed's knobs, %d with stock knobs, configurations interleaved (one NameNode on"
        + " one cluster, coupled nodes on a second cluster of the same size, both up at once)."
        + " Links: %s; disks: %s per device.%n%n",
        request.nodes(), (request.nodes() + 1) / 2, request.files(), request.fileBytes(),
        GearBenchCluster.replication(request.nodes()), request.runs(), request.stockRuns(),
        request.linkBitsPerSecond() == 0 ? "unshaped"
            : request.linkBitsPerSecond() / 1_000_000 + " Mbit/s",
        request.diskBytesPerSecond() == 0 ? "unthrottled"
            : request.diskBytesPerSecond() / 1_000_000 + " MB/s"));
    md.append("Reflection: from the gear-up's start (returning DataNodes already registered)"
        + " until every logged block is on its intended node, the stand-ins' extra replicas are"
        + " chosen for deletion and the NameNode has no block below its replication."
        + " Connections per block: block-transfer connections the returning DataNodes accepted"
        + " during the gear-up, as their own metrics count them (`WriteBlockOpNumOps`, one per"
        + " HDFS transfer; `TransferConnectionsAccepted` of the batch service), per moved block;"
        + " TCP per block: every connection their kernels accepted meanwhile (`PassiveOpens` of"
        + " their network namespaces), a cross-check. Knobs `seed`: heartbeat 1 s, replication"
        + " max-streams and hard limit 100 (seed Table 4); `stock`: Hadoop 3.5.0's defaults"
        + " (3 s, 2, 4). Metadata `master`: one NameNode, gear 0 the first half of the nodes,"
        + " files through it; `sdp`: coupled nodes (a NameNode per node, HDFS federation),"
        + " gear 0 every other node, every partition's gear-up started at once; steps are the"
        + " longest any partition took. "
        + (request.wholeNodes()
            ? "Whole nodes (`--whole-nodes`): every partition has a copy (an HA standby on the"
                + " next node), a switched-off node goes off whole, its partition served by the"
                + " copy, the files go round robin into every partition, and step 1 adds what"
                + " the returning NameNodes still applied after first answering (they read the"
                + " missed edits while starting: the restart column). "
            : "A switched-off coupled node's DataNode stops and its NameNode keeps running, and"
                + " the files go round robin into the partitions of the nodes that stay on. ")
        + "`fatbtree`: the same coupled cluster with the Fat-Btree"
        + " index in every NameNode, the files created through `locusfbt://` (resolved and"
        + " registered in the index) into a subtree per partition of a node on, the rest as"
        + " SBB. Restart: from switching the returning nodes on until they are live (not in the"
        + " reflection). Step 1 share: step 1 over the reflection time. Index step 1: on a"
        + " `fatbtree` cluster with whole nodes, the Fat-Btree pages (and their KB) shipped to"
        + " the returning index nodes, their own pages their copies changed and the copies"
        + " they keep (its time is in step 1); `-` where the cluster has no index copies.\n\n");
    md.append("| configuration | metadata | issuance | transfer | knobs | runs | blocks |"
        + " reflection s (mean) | range | of normal | per block, of normal |"
        + " step 1 / 2 / 3 / 4 ms (mean) | step 1 share | index step 1 pages / KB (mean)"
        + " | connections per block"
        + " | TCP per block | MB sent per stand-in | restart s | write s |\n");
    md.append("|---|---|---|---|---|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|"
        + "---:|---:|\n");
    double normal = byConfig.containsKey("normal")
        ? mean(byConfig.get("normal"), r -> r.reflectionMillis()) : 0;
    double normalPerBlock = byConfig.containsKey("normal")
        ? mean(byConfig.get("normal"), GearBenchReport::perBlock) : 0;
    for (Map.Entry<String, List<GearRun>> e : byConfig.entrySet()) {
      GearBenchConfig config = GearBenchConfig.ALL.get(e.getKey());
      List<GearRun> runs = e.getValue();
      double reflection = mean(runs, r -> r.reflectionMillis());
      double perBlock = mean(runs, GearBenchReport::perBlock);
      md.append(String.format("| %s | %s | %s | %s | %s | %d | %.0f | %.1f | %s | %s | %s |"
          + " %.0f / %.0f / %.0f / %.0f | %.3f | %s | %.2f | %.2f | %.1f | %.1f | %.1f |%n",
          config.name(), config.metadata(), config.issuance(),
          config.transfer(), config.knobs(), runs.size(), mean(runs, r -> r.blocks()),
          reflection / 1000.0, range(runs, r -> r.reflectionMillis(), 1000.0),
          normal > 0 ? String.format("%.2f", reflection / normal) : "-",
          normalPerBlock > 0 ? String.format("%.2f", perBlock / normalPerBlock) : "-",
          mean(runs, r -> r.stepMillis()[0]), mean(runs, r -> r.stepMillis()[1]),
          mean(runs, r -> r.stepMillis()[2]), mean(runs, r -> r.stepMillis()[3]),
          mean(runs, r -> r.reflectionMillis() == 0 ? 0
              : (double) r.stepMillis()[0] / r.reflectionMillis()),
          indexStepOne(runs),
          mean(runs, GearRun::connectionsPerBlock),
          mean(runs, r -> r.blocks() == 0 ? 0 : (double) r.tcpAccepted() / r.blocks()),
          mean(runs, GearBenchReport::standInMb),
          mean(runs, r -> r.restartMillis()) / 1000.0,
          mean(runs, r -> r.writeMillis()) / 1000.0));
    }
    long unhealthy = byConfig.values().stream().flatMap(List::stream)
        .filter(r -> !r.fsckHealthy()).count();
    md.append(String.format("%nfsck after every run: %s.%n%n", unhealthy == 0 ? "HEALTHY"
        : unhealthy + " runs NOT healthy"));
    md.append("![reflection](reflection.svg)\n\n");
    md.append(energy(request, byConfig));
    return md.toString();
  }

  /** @return mean index pages / KB shipped at step 1, or "-" if no run had index copies */
  private static String indexStepOne(List<GearRun> runs) {
    List<GearRun> indexed = runs.stream().filter(GearRun::indexCopies).toList();
    if (indexed.isEmpty()) {
      return "-";
    }
    return String.format("%.0f / %.1f", mean(indexed, r -> r.indexPages()),
        mean(indexed, r -> r.indexBytes()) / 1024.0);
  }

  /** @return reflection milliseconds per moved block */
  private static double perBlock(GearRun run) {
    return run.blocks() == 0 ? 0 : (double) run.reflectionMillis() / run.blocks();
  }

  /** @return mean MB the busiest half of the nodes (the stand-ins) put on their links */
  private static double standInMb(GearRun run) {
    List<Long> sent = run.sentBytes().values().stream().sorted((a, b) -> Long.compare(b, a))
        .toList();
    int half = Math.max(1, sent.size() / 2);
    return sent.subList(0, half).stream().mapToLong(Long::longValue).average().orElse(0) / 1e6;
  }

  /**
   * A day of light and heavy load: every node on during the heavy hours, half of them during
   * the light ones, plus one gear-up a day at every node's power for its reflection time.
   * Node power from the energy module's model (watts besides disks, plus one drive of the
   * energy module's disk profile); modelled, not measured.
   */
  static String energy(GearBenchRequest request, Map<String, List<GearRun>> byConfig) {
    DiskPowerProfile disk = DiskPowerProfile.BARRACUDA_7200_14;
    double idle = request.nodeWatts() + disk.idleWatts();
    double active = request.nodeWatts() + disk.activeWatts();
    int nodes = request.nodes();
    int low = (nodes + 1) / 2;
    double heavy = request.heavyHours();
    double alwaysOn = nodes * (heavy * active + (24 - heavy) * idle);
    double geared = nodes * heavy * active + low * (24 - heavy) * idle;
    StringBuilder md = new StringBuilder("## Energy of a day in gears (modelled)\n\n");
    md.append(String.format("**Modelled, not measured**: %.0f W per node besides its disk"
        + " (energy module, `locus.energy.node.base.watts`) plus one drive of %s (active %.1f W,"
        + " idle %.1f W); %.0f heavy hours with every node on and working, %.0f light hours"
        + " idle, in gear 0 (%d of %d nodes on) or with every node on; one gear-up a day,"
        + " every node active for the measured reflection time.%n%n", request.nodeWatts(),
        "Seagate Barracuda 7200.14", disk.activeWatts(), disk.idleWatts(), heavy, 24 - heavy,
        low, nodes));
    md.append("| schedule | kWh per day | of always on |\n|---|---:|---:|\n");
    md.append(String.format("| always on | %.2f | 1.00 |%n", alwaysOn / 1000));
    for (Map.Entry<String, List<GearRun>> e : byConfig.entrySet()) {
      double reflectionHours = mean(e.getValue(), r -> r.reflectionMillis()) / 3_600_000.0;
      double day = geared + nodes * active * reflectionHours;
      md.append(String.format("| gears, gear-up by %s | %.2f | %.3f |%n", e.getKey(),
          day / 1000, day / alwaysOn));
    }
    return md.toString();
  }

  static String json(List<GearRun> runs) {
    return runs.stream().map(r -> String.format("  {\"config\": \"%s\", \"run\": %d,"
        + " \"files\": %d, \"blocks\": %d, \"stepMillis\": [%d, %d, %d, %d],"
        + " \"reflectionMillis\": %d, \"restartMillis\": %d, \"writeMillis\": %d,"
        + " \"dataConnections\": %d, \"tcpAccepted\": %d, \"fsckHealthy\": %b,"
        + " \"indexPages\": %d, \"indexBytes\": %d, \"sentBytes\": {%s}}", r.config(),
        r.run(), r.files(), r.blocks(), r.stepMillis()[0], r.stepMillis()[1],
        r.stepMillis()[2], r.stepMillis()[3], r.reflectionMillis(), r.restartMillis(),
        r.writeMillis(), r.dataConnections(), r.tcpAccepted(), r.fsckHealthy(), r.indexPages(),
        r.indexBytes(), r.sentBytes().entrySet()
            .stream().map(e -> "\"" + e.getKey() + "\": " + e.getValue())
            .collect(Collectors.joining(", "))))
        .collect(Collectors.joining(",\n", "[\n", "\n]\n"));
  }
}
