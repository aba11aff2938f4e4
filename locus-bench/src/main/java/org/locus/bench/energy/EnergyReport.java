package org.locus.bench.energy;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.locus.bench.energy.EnergyBenchCluster.Setup;
import org.locus.bench.report.BarChartSvg;
import org.locus.energy.accounting.PowerTimeComparison;
import org.locus.jobs.WordCount;
import org.locus.jobs.swim.SwimScaling;
import org.locus.bench.energy.EnergyBench.Measurement;
import org.locus.bench.energy.EnergyBench.Request;

/**
 * The energy bench's report from its measurements: {@code report.md} (the table, the deferred
 * move of staged replicas, Ptc crossovers) and the ratio chart ({@code ratios.csv},
 * {@code ratios.svg}). Running the set-ups and measuring is {@link EnergyBench}'s.
 */
final class EnergyReport {
  private EnergyReport() {
  }

  static String markdown(List<Measurement> results, double nodeWatts, Request request,
      int swimJobs) {
    int files = request.files();
    int writeFiles = request.writeFiles();
    int fileKib = request.fileKib();
    int blockKib = request.blockKib();
    int rounds = request.rounds();
    boolean netns = request.netns();
    StringBuilder md = new StringBuilder();
    md.append("# Energy-efficient HDFS bench\n\n")
        .append("Command: `bin/locus bench energy --files ").append(files)
        .append(" --write-files ").append(writeFiles)
        .append(" --file-kib ").append(fileKib).append(" --block-kib ").append(blockKib)
        .append(" --rounds ").append(rounds).append(netns ? " --cluster netns" : "")
        .append(" --swim-hours ").append(request.swimHours())
        .append(request.swimHours() > 0 ? " --swim-compress " + request.swimCompression() : "")
        .append("`; every figure is the mean of ").append(rounds)
        .append(" rounds, the set-up order mirrored every other round.\n\n")
        .append(netns ? "3 nodes (netns: stock Hadoop daemons as processes, one network"
            + " namespace per node, each DataNode with its own power manager, accounts read"
            + " over its /jmx)" : "3 nodes (embedded, own loopback hosts)")
        .append(" with YARN, replication 3, block ")
        .append(blockKib).append(" KiB. WordCount reads a corpus of ").append(files)
        .append(" × ").append(fileKib).append(" KiB loaded before it (not measured); the")
        .append(" write-heavy job then writes ").append(writeFiles).append(" × ").append(fileKib)
        .append(" KiB more (a map-only MapReduce job) on the cluster holding the corpus.")
        .append(swimJobs == 0 ? "" : String.format(" The mixed workload then replays the %d"
            + " %s FB-2009 submitted in its first %s h, %s times faster than the trace, so"
            + " jobs overlap as they did there; each reads, shuffles and writes its trace"
            + " bytes divided by %.0f (600 traced nodes over %d), clipped to [64 KiB, 16 MiB],"
            + " over an input pool loaded before it (not measured); its wall time is the"
            + " replay's makespan.", swimJobs, swimJobs == 1 ? "job" : "jobs",
            request.swimHours(), request.swimCompression(),
            (double) SwimScaling.FB2009_NODES / EnergyBenchCluster.NODES,
            EnergyBenchCluster.NODES))
        .append(" Per node one primary disk and one backup volume that is a 3-drive RAID-5 array")
        .append(" (seed §4.3.3), all **simulated** from the Seagate Barracuda 7200.14 datasheet")
        .append(" (6.0 W active, 4.6 W idle, 0.75 W standby, 24 W / 10 s spin-up per drive).")
        .append(" Node power model: ").append(nodeWatts).append(" W per node besides disks.")
        .append(" Backups: fixed idle timeout ").append(EnergyBench.STANDBY_TIMEOUT_MILLIS / 1000)
        .append(" s, the same minimum residency; prediction with a lead of one spin-up.")
        .append(" Each workload starts with every disk quiet for 5 s (and, energy-efficient,")
        .append(" every backup in standby).")
        .append(" Time T = measured wall time + the longest spin-up an access waited for")
        .append(" (simulated disks do not delay I/O; real ones would), and energy is accounted")
        .append(" over the same T: the disks' accounts are read again that long after the")
        .append(" job.\n\n");
    Map<String, Map<Setup, Measurement>> byWorkload = new LinkedHashMap<>();
    for (Measurement m : results) {
      byWorkload.computeIfAbsent(m.workload(), k -> new EnumMap<>(Setup.class))
          .put(m.setup(), m);
    }
    md.append("| workload | set-up | wall s | spin-up wait s | T s | disk J | node J |"
        + " disk-energy ratio | node-energy ratio | time ratio | Pt ratio (node) |"
        + " backup spin-ups | backup standby |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Map.Entry<String, Map<Setup, Measurement>> w : byWorkload.entrySet()) {
      Measurement base = w.getValue().get(Setup.NATIVE);
      if (base == null) {
        continue; // the move of staged replicas, reported below
      }
      for (Measurement m : w.getValue().values()) {
        PowerTimeComparison node = new PowerTimeComparison(m.nodeJoules(nodeWatts),
            m.seconds(), base.nodeJoules(nodeWatts), base.seconds());
        md.append(String.format("| %s | %s | %.1f | %.1f | %.1f | %.0f | %.0f | %.3f | %.3f |"
                + " %.3f | %.3f | %d | %.1f %% |%n", w.getKey(), m.setup().label,
            m.wallMillis() / 1000.0, m.stallMillis() / 1000.0, m.seconds(), m.diskJoules(),
            m.nodeJoules(nodeWatts), m.diskJoules() / base.diskJoules(), node.energyRatio(),
            node.timeRatio(), node.powerTimeRatio(), m.spinUps(),
            100 * m.backupStandbyShare()));
      }
    }
    md.append("\nEvery round's figures: `rounds.csv`; the power managers' decisions (wake-ups and")
        .append(netns ? " why): each DataNode's log, `cluster-SETUP/nodes/NODE/logs`, of the last"
            + " round (the bench's marks: `power-manager.log`).\n"
            : " why) between the bench's marks: `power-manager.log`.\n");
    md.append(moveSection(byWorkload));
    md.append("\nPtc (seed Eq. 4.3, whole nodes), energy-efficient vs native:\n\n");
    for (Map.Entry<String, Map<Setup, Measurement>> w : byWorkload.entrySet()) {
      Measurement base = w.getValue().get(Setup.NATIVE);
      if (base == null) {
        continue;
      }
      for (Measurement m : w.getValue().values()) {
        if (m.setup() == Setup.NATIVE) {
          continue;
        }
        PowerTimeComparison node = new PowerTimeComparison(m.nodeJoules(nodeWatts),
            m.seconds(), base.nodeJoules(nodeWatts), base.seconds());
        double alpha = node.crossoverAlpha();
        md.append("- ").append(w.getKey()).append(", ").append(m.setup().label).append(": ")
            .append(Double.isNaN(alpha) ? (node.ptc(0.5).system() < node.ptc(0.5).baseline()
                ? "lower at every α" : "higher at every α")
                : String.format("α > %.3f", alpha)).append('\n');
      }
    }
    md.append("\nSeed 000 §4.4.3 (3 nodes, 75 GB WordCount, whole nodes): energy 0.81,")
        .append(" time 1.06, Pt 0.86.\n\n![ratios](ratios.svg)\n");
    return md.toString();
  }

  /**
   * @return with write off-loading, the deferred move, and every measured workload with it
   *     against the same workloads on native HDFS (the move carries the replicas all of them
   *     staged, not only the write job's); empty without that set-up
   */
  static String moveSection(Map<String, Map<Setup, Measurement>> byWorkload) {
    Measurement move = byWorkload.getOrDefault(EnergyBench.MOVE_STAGED, Map.of())
        .get(Setup.OFFLOAD);
    if (move == null) {
      return "";
    }
    double offloaded = 0;
    double stock = 0;
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, Map<Setup, Measurement>> w : byWorkload.entrySet()) {
      Measurement off = w.getValue().get(Setup.OFFLOAD);
      Measurement nat = w.getValue().get(Setup.NATIVE);
      if (w.getKey().equals(EnergyBench.MOVE_STAGED) || off == null || nat == null) {
        continue;
      }
      offloaded += off.diskJoules();
      stock += nat.diskJoules();
      names.add(chartName(w.getKey()));
    }
    if (names.isEmpty()) {
      return "";
    }
    return String.format("%nWrite off-loading defers a cost: after the last workload the bench"
        + " wakes every backup and moves the replicas staged for them (written by the workloads"
        + " above), %.1f s and %.0f J of disk energy with %d backup spin-ups. The workloads (%s)"
        + " and the move together: %.0f J, **%.3f** of the same workloads' disk energy on native"
        + " HDFS (the workloads alone %.3f). The move is off the jobs' path; on a cluster it"
        + " happens when the backups next wake for a read, and costs only its transfer then.%n",
        move.wallMillis() / 1000.0, move.diskJoules(), move.spinUps(), String.join(", ", names),
        offloaded + move.diskJoules(), (offloaded + move.diskJoules()) / stock,
        offloaded / stock);
  }

  private static String chartName(String workload) {
    return switch (workload) {
      case EnergyBench.WRITE_HEAVY -> "write job";
      case EnergyBench.MIXED -> "SWIM replay";
      default -> "WordCount";
    };
  }

  static void writeChart(List<Measurement> results, double nodeWatts, File out)
      throws IOException {
    List<String> categories = new ArrayList<>();
    double[][] values = new double[3][];
    List<double[]> columns = new ArrayList<>();
    try (PrintWriter w = new PrintWriter(new File(out, "ratios.csv"), StandardCharsets.UTF_8)) {
      w.println("label,disk_energy,node_energy,time");
      for (Measurement m : results) {
        if (m.setup() == Setup.NATIVE || m.workload().equals(EnergyBench.MOVE_STAGED)) {
          continue;
        }
        Measurement base = results.stream().filter(b -> b.setup() == Setup.NATIVE
            && b.workload().equals(m.workload())).findFirst().orElseThrow();
        double[] ratios = {m.diskJoules() / base.diskJoules(),
            m.nodeJoules(nodeWatts) / base.nodeJoules(nodeWatts), m.seconds() / base.seconds()};
        String label = chartName(m.workload()) + " · " + m.setup().shortName;
        w.printf("%s,%.4f,%.4f,%.4f%n", label, ratios[0], ratios[1], ratios[2]);
        categories.add(label);
        columns.add(ratios);
      }
    }
    for (int s = 0; s < 3; s++) {
      values[s] = new double[columns.size()];
      for (int c = 0; c < columns.size(); c++) {
        values[s][c] = columns.get(c)[s];
      }
    }
    BarChartSvg.write(new File(out, "ratios.svg").toPath(),
        "Energy-efficient HDFS vs native (1.0 = native)", "ratio to native", categories,
        List.of("disk energy", "node energy", "time"), values);
  }
}
