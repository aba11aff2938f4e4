package org.locus.cli.energy;

import java.io.PrintStream;
import java.util.List;

import org.locus.bench.report.TextTable;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.accounting.PowerTimeComparison;

/**
 * Prints disk energy accounts: one row per disk, then energy, time, Pt (seed Eq. 4.2) and the
 * Ptc curve over α (Eq. 4.3) against the all-disks-active baseline of the same disks over the
 * same time. The time of the energy-efficient system is the accounted time plus the longest
 * spin-up wait of any disk (accesses to a sleeping disk wait for it).
 */
final class EnergySummary {
  private EnergySummary() {
  }

  static void printDisks(List<DiskEnergy> disks, PrintStream out) {
    TextTable table = new TextTable("HOST", "VOLUME", "ROLE", "STATE", "STANDBY", "SPIN-UPS",
        "ENERGY J", "ALWAYS-ON J");
    for (DiskEnergy d : disks) {
      table.row(d.host(), shortVolume(d.volume()), d.backup() ? "backup" : "primary", d.state(),
          String.format("%.1f %%", 100 * d.standbyShare()), d.spinUps(),
          String.format("%.1f", d.joules()), String.format("%.1f", d.baselineJoules()));
    }
    table.print(out, "  ");
  }

  static PowerTimeComparison compare(List<DiskEnergy> disks) {
    double joules = 0;
    double baseline = 0;
    long millis = 0;
    long stall = 0;
    for (DiskEnergy d : disks) {
      joules += d.joules();
      baseline += d.baselineJoules();
      millis = Math.max(millis, d.totalMillis());
      stall = Math.max(stall, d.demandStallMillis());
    }
    return new PowerTimeComparison(joules, (millis + stall) / 1000.0, baseline, millis / 1000.0);
  }

  static void printComparison(PowerTimeComparison c, PrintStream out) {
    out.printf("  disk energy %.1f J vs %.1f J always-on (ratio %.3f); time %.1f s vs %.1f s"
        + " (ratio %.3f); Pt = E x T ratio %.3f%n", c.energyJoules(), c.baselineJoules(),
        c.energyRatio(), c.seconds(), c.baselineSeconds(), c.timeRatio(), c.powerTimeRatio());
    TextTable ptc = new TextTable("ALPHA", "PTC ENERGY-EFFICIENT", "PTC ALWAYS-ON");
    for (PowerTimeComparison.PtcPoint p : c.ptcCurve()) {
      ptc.row(String.format("%.1f", p.alpha()), String.format("%.4f", p.system()),
          String.format("%.4f", p.baseline()));
    }
    ptc.print(out, "  ");
    double alpha = c.crossoverAlpha();
    out.println(Double.isNaN(alpha) ? "  no crossover in 0..1"
        : String.format("  the energy-efficient system has the lower Ptc for alpha > %.3f",
            alpha));
  }

  private static String shortVolume(String volume) {
    int cut = volume.lastIndexOf("/dfs/");
    return cut >= 0 ? "..." + volume.substring(cut) : volume;
  }
}
