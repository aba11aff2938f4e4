package org.locus.bench.energy;

import java.io.File;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.locus.bench.BenchException;
import org.locus.bench.report.BarChartSvg;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.policy.FixedTimeoutPolicy;
import org.locus.energy.policy.IdleGapHistoryPolicy;
import org.locus.energy.policy.SpinDownPolicy;
import org.locus.energy.replay.AccessTrace;
import org.locus.energy.replay.SpinDownReplay;

/**
 * The spin-down bench ({@code locus bench spindown}): the spin-down policies side by side on
 * backup-disk access traces, replayed through the power manager's own state machine on a virtual
 * clock — the seed's fixed timeouts against the idle-gap history predictor, with the offline
 * optimum as the floor. Answers whether the history policy beats a fixed timeout, and on which
 * workloads.
 */
public final class SpinDownBench {
  private static final long TICK_MILLIS = 250;
  private static final long MIN_RESIDENCY_MILLIS = 10_000;

  /**
   * What to run.
   *
   * @param hours length of each trace
   * @param seed seed of the random traces
   * @param out the report directory
   */
  public record Request(int hours, int seed, File out) {
  }

  private final Request request;

  public SpinDownBench(Request request) {
    this.request = request;
  }

  /** One policy's outcome on one trace. */
  record Row(String trace, String policy, SpinDownReplay.Outcome outcome, double optimumJoules) {
  }

  /**
   * Replays every trace under every policy, reporting progress on {@code err}; writes
   * report.md, energy.csv and energy.svg into the report directory and prints the report on
   * {@code out}.
   */
  public void run(PrintStream out, PrintStream err) throws Exception {
    int hours = request.hours();
    int seed = request.seed();
    File dir = request.out();
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new BenchException("cannot create report directory " + dir);
    }
    long duration = hours * 3_600_000L;
    DiskPowerProfile drive = DiskPowerProfile.BARRACUDA_7200_14;
    long breakEven = drive.breakEvenMillis();
    List<AccessTrace> traces = List.of(
        AccessTrace.steady(duration, 20_000, 40_000, seed),
        AccessTrace.batchWindows(duration, 30 * 60_000L, 5 * 60_000L, 10_000),
        AccessTrace.heavyTailed(duration, 10_000, 0.9, seed));
    Map<String, Supplier<SpinDownPolicy>> policies = new LinkedHashMap<>();
    policies.put("fixed 10 s", () -> new FixedTimeoutPolicy(10_000));
    policies.put("fixed 30 s", () -> new FixedTimeoutPolicy(30_000));
    policies.put("fixed 60 s (default)", () -> new FixedTimeoutPolicy(60_000));
    policies.put("fixed 300 s", () -> new FixedTimeoutPolicy(300_000));
    policies.put("history, ≤ 300 s",
        () -> new IdleGapHistoryPolicy(300_000, 2 * TICK_MILLIS, drive));

    SpinDownReplay replay = new SpinDownReplay(drive, TICK_MILLIS, MIN_RESIDENCY_MILLIS);
    List<Row> rows = new ArrayList<>();
    for (AccessTrace trace : traces) {
      err.printf("[bench spindown] %s: %d accesses in %d h%n", trace.name(),
          trace.accesses(), hours);
      double optimum = replay.offlineOptimumJoules(trace);
      for (Map.Entry<String, Supplier<SpinDownPolicy>> p : policies.entrySet()) {
        rows.add(new Row(trace.name(), p.getKey(), replay.replay(trace, p.getValue().get()),
            optimum));
      }
    }
    String report = markdown(rows, hours, seed, drive, breakEven);
    Files.writeString(new File(dir, "report.md").toPath(), report, StandardCharsets.UTF_8);
    writeChart(rows, traces, policies, dir);
    out.print(report);
    out.println("report: " + new File(dir, "report.md"));
  }

  static String markdown(List<Row> rows, int hours, int seed, DiskPowerProfile drive,
      long breakEven) {
    StringBuilder md = new StringBuilder();
    md.append("# Spin-down policies on backup-disk access traces\n\n")
        .append("Command: `bin/locus bench spindown --hours ").append(hours)
        .append(" --seed ").append(seed).append("`. Each trace is replayed through the power")
        .append(" manager's own per-disk state machine (`BackupDisk`) on a virtual clock,")
        .append(" ticking every ").append(TICK_MILLIS).append(" ms, minimum residency ")
        .append(MIN_RESIDENCY_MILLIS / 1000).append(" s, one simulated drive (")
        .append(String.format("%.2f W active, %.2f W idle, %.2f W standby, %.0f W for %.0f s"
            + " spin-up", drive.activeWatts(), drive.idleWatts(), drive.standbyWatts(),
            drive.spinUpWatts(), drive.spinUpMillis() / 1000.0))
        .append("; break-even idle time ").append(String.format("%.1f s", breakEven / 1000.0))
        .append("). Energy ratios are to the same disk always spinning; the offline optimum")
        .append(" knows every gap in advance (spins down at once when the gap is worth it).")
        .append(" A stall is an access that met a sleeping disk and waited its spin-up.\n\n")
        .append("| trace | policy | energy kJ | vs always-on | vs optimum | spin-ups |")
        .append(" stalls | stall time s | standby |\n")
        .append("|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      SpinDownReplay.Outcome o = r.outcome();
      md.append(String.format("| %s | %s | %.1f | %.3f | %.3f | %d | %d | %.0f | %.1f %% |%n",
          r.trace(), r.policy(), o.joules() / 1000, o.joules() / o.alwaysOnJoules(),
          o.joules() / r.optimumJoules(), o.spinUps(), o.demandSpinUps(),
          o.stallMillis() / 1000.0, 100 * o.standbyShare()));
    }
    md.append("\nOffline optimum per trace: ");
    String previous = null;
    for (Row r : rows) {
      if (!r.trace().equals(previous)) {
        md.append(previous == null ? "" : "; ").append(r.trace()).append(' ')
            .append(String.format("%.1f kJ", r.optimumJoules() / 1000));
        previous = r.trace();
      }
    }
    md.append(".\n\n![energy relative to the offline optimum](energy.svg)\n");
    return md.toString();
  }

  private static void writeChart(List<Row> rows, List<AccessTrace> traces,
      Map<String, Supplier<SpinDownPolicy>> policies, File out) throws Exception {
    List<String> policyNames = new ArrayList<>(policies.keySet());
    List<String> traceNames = traces.stream().map(AccessTrace::name).toList();
    double[][] values = new double[policyNames.size()][traceNames.size()];
    try (PrintWriter csv = new PrintWriter(new File(out, "energy.csv"),
        StandardCharsets.UTF_8)) {
      csv.println("trace,policy,joules,always_on_joules,optimum_joules,spin_ups,stalls");
      for (Row r : rows) {
        SpinDownReplay.Outcome o = r.outcome();
        values[policyNames.indexOf(r.policy())][traceNames.indexOf(r.trace())] =
            o.joules() / r.optimumJoules();
        csv.printf("\"%s\",\"%s\",%.1f,%.1f,%.1f,%d,%d%n", r.trace(), r.policy(), o.joules(),
            o.alwaysOnJoules(), r.optimumJoules(), o.spinUps(), o.demandSpinUps());
      }
    }
    BarChartSvg.write(new File(out, "energy.svg").toPath(),
        "Backup-disk energy per spin-down policy (1.0 = offline optimum)", "energy / optimum",
        traceNames, policyNames, values);
  }
}
