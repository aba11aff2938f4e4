package org.locus.cli.energy;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.fs.Path;
import org.locus.cli.Console;
import org.locus.cli.LocusException;
import org.locus.cli.OptionsCommand;
import org.locus.cli.bench.BarChartSvg;
import org.locus.cli.energy.EnergyBenchCluster.Setup;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.accounting.PowerTimeComparison;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;

/**
 * {@code locus bench energy}: native HDFS vs energy-efficient HDFS without and with prediction,
 * side by side in one run on the same simulated hardware, for a write-heavy bulk import and a
 * read-intensive WordCount. Reports disk and whole-node energy, time, Pt ratios, spin-ups and
 * backup standby share in a Markdown report with a chart.
 */
public final class EnergyBenchCommand extends OptionsCommand {
  public EnergyBenchCommand() {
    super("locus bench energy");
  }

  @Override
  public String name() {
    return "energy";
  }

  @Override
  public String summary() {
    return "energy-efficient HDFS (with/without prediction) vs native: energy, time, Pt on a"
        + " bulk import and WordCount";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
        .desc("report directory (default bench-results/energy)").build());
    options.addOption(Option.builder().longOpt("files").hasArg().argName("N")
        .desc("corpus files (default 4)").build());
    options.addOption(Option.builder().longOpt("file-kib").hasArg().argName("KIB")
        .desc("size of each corpus file in KiB (default 1024)").build());
    options.addOption(Option.builder().longOpt("rounds").hasArg().argName("N")
        .desc("rounds, each set-up once per round, order mirrored every other round so drift"
            + " in machine load cancels (default 2)").build());
    options.addOption(Option.builder().longOpt("node-watts").hasArg().argName("W")
        .desc("node power besides disks (default "
            + EnergyConfigKeys.NODE_BASE_WATTS_DEFAULT + ")").build());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "[--out DIR] [--files N] [--file-kib KIB] [--rounds N] [--node-watts W]";
  }

  /** One workload's measurement in one set-up. */
  record Measurement(Setup setup, String workload, long wallMillis, long stallMillis,
      double diskJoules, long spinUps, double backupStandbyShare) {

    double seconds() {
      return (wallMillis + stallMillis) / 1000.0;
    }

    double nodeJoules(double nodeWatts) {
      return EnergyBenchCluster.NODES * nodeWatts * seconds() + diskJoules;
    }
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int files = intOption(line, "files", 4, 1, 64);
    int fileKib = intOption(line, "file-kib", 1024, 64, 64 * 1024);
    double nodeWatts = Double.parseDouble(line.getOptionValue("node-watts",
        Double.toString(EnergyConfigKeys.NODE_BASE_WATTS_DEFAULT)));
    File out = new File(line.getOptionValue("out", "bench-results/energy")).getAbsoluteFile();
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new LocusException("cannot create report directory " + out);
    }
    int rounds = intOption(line, "rounds", 2, 1, 10);
    List<Measurement> all = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      List<Setup> order = new ArrayList<>(List.of(Setup.values()));
      if (round % 2 == 1) {
        Collections.reverse(order);
      }
      for (Setup setup : order) {
        console.err().println("[bench energy] round " + (round + 1) + ": " + setup.label);
        all.addAll(runSetup(setup, new File(out, "cluster-" + setup.name().toLowerCase()),
            files, fileKib * 1024L, console));
      }
    }
    List<Measurement> results = average(all);
    String report = markdown(results, nodeWatts, files, fileKib, rounds);
    Files.writeString(new File(out, "report.md").toPath(), report, StandardCharsets.UTF_8);
    writeChart(results, nodeWatts, out);
    console.out().print(report);
    console.out().println("report: " + new File(out, "report.md"));
    return 0;
  }

  static List<Measurement> runSetup(Setup setup, File dir, int files, long fileBytes,
      Console console) throws Exception {
    List<Measurement> results = new ArrayList<>();
    try (EnergyBenchCluster bench = new EnergyBenchCluster(dir, setup)) {
      settle(bench, setup);
      Path corpus = new Path("/bench/corpus");
      Map<String, DiskEnergy> before = bench.accounts();
      long start = System.nanoTime();
      new ZipfTextGenerator(5000, 1.0, 42).write(bench.cluster().getFileSystem(), corpus, files,
          fileBytes);
      long wall = (System.nanoTime() - start) / 1_000_000;
      results.add(measure(setup, "bulk import (write-heavy)", wall,
          EnergyBenchCluster.between(before, bench.accounts())));

      settle(bench, setup);
      before = bench.accounts();
      JobOutcome job = JobOutcome.run(WordCount.create(bench.cluster().getConfiguration(),
          corpus, new Path("/bench/wordcount"), 1), false);
      if (!job.succeeded()) {
        throw new LocusException("WordCount failed in set-up " + setup.label);
      }
      results.add(measure(setup, "WordCount (read-intensive)", job.wallMillis(),
          EnergyBenchCluster.between(before, bench.accounts())));
    }
    return results;
  }

  /** Lets the backups reach standby, the steady state a workload meets (energy set-ups). */
  private static void settle(EnergyBenchCluster bench, Setup setup) throws Exception {
    if (setup != Setup.NATIVE && !bench.awaitBackupsInStandby(60_000)) {
      throw new LocusException("backup disks did not reach standby within 60 s in "
          + setup.label);
    }
  }

  /** @return one measurement per set-up and workload, the mean over the rounds */
  static List<Measurement> average(List<Measurement> all) {
    Map<String, List<Measurement>> groups = new LinkedHashMap<>();
    for (Setup setup : Setup.values()) {
      for (Measurement m : all) {
        if (m.setup() == setup) {
          groups.computeIfAbsent(setup + "/" + m.workload(), k -> new ArrayList<>()).add(m);
        }
      }
    }
    List<Measurement> means = new ArrayList<>();
    for (List<Measurement> g : groups.values()) {
      int n = g.size();
      means.add(new Measurement(g.get(0).setup(), g.get(0).workload(),
          g.stream().mapToLong(Measurement::wallMillis).sum() / n,
          g.stream().mapToLong(Measurement::stallMillis).sum() / n,
          g.stream().mapToDouble(Measurement::diskJoules).sum() / n,
          g.stream().mapToLong(Measurement::spinUps).sum() / n,
          g.stream().mapToDouble(Measurement::backupStandbyShare).sum() / n));
    }
    return means;
  }

  static Measurement measure(Setup setup, String workload, long wallMillis,
      List<DiskEnergy> interval) {
    double joules = 0;
    long stall = 0;
    long spinUps = 0;
    double standby = 0;
    int backups = 0;
    for (DiskEnergy d : interval) {
      joules += d.joules();
      stall = Math.max(stall, d.demandStallMillis());
      if (d.backup()) {
        spinUps += d.spinUps();
        standby += d.standbyShare();
        backups++;
      }
    }
    return new Measurement(setup, workload, wallMillis, stall, joules, spinUps,
        backups == 0 ? 0 : standby / backups);
  }

  static String markdown(List<Measurement> results, double nodeWatts, int files, int fileKib,
      int rounds) {
    StringBuilder md = new StringBuilder();
    md.append("# Energy-efficient HDFS bench\n\n")
        .append("Command: `bin/locus bench energy --files ").append(files)
        .append(" --file-kib ").append(fileKib).append(" --rounds ").append(rounds)
        .append("`; every figure is the mean of ").append(rounds)
        .append(" rounds, the set-up order mirrored every other round.\n\n")
        .append("3 nodes (embedded, own loopback hosts) with YARN, replication 3, block 256 KiB.")
        .append(" Per node one primary disk and one backup volume that is a 3-drive RAID-5 array")
        .append(" (seed §4.3.3), all **simulated** from the Seagate Barracuda 7200.14 datasheet")
        .append(" (6.0 W active, 4.6 W idle, 0.75 W standby, 24 W / 10 s spin-up per drive).")
        .append(" Node power model: ").append(nodeWatts).append(" W per node besides disks.")
        .append(" Time T = measured wall time + the longest spin-up an access waited for")
        .append(" (simulated disks do not delay I/O; real ones would).\n\n");
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
    md.append("\nPtc (seed Eq. 4.3, whole nodes), energy-efficient vs native:\n\n");
    for (Map.Entry<String, Map<Setup, Measurement>> w : byWorkload.entrySet()) {
      Measurement base = w.getValue().get(Setup.NATIVE);
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

  private static void writeChart(List<Measurement> results, double nodeWatts, File out)
      throws IOException {
    List<String> categories = new ArrayList<>();
    double[][] values = new double[3][];
    List<double[]> columns = new ArrayList<>();
    try (PrintWriter w = new PrintWriter(new File(out, "ratios.csv"), StandardCharsets.UTF_8)) {
      w.println("label,disk_energy,node_energy,time");
      for (Measurement m : results) {
        if (m.setup() == Setup.NATIVE) {
          continue;
        }
        Measurement base = results.stream().filter(b -> b.setup() == Setup.NATIVE
            && b.workload().equals(m.workload())).findFirst().orElseThrow();
        double[] ratios = {m.diskJoules() / base.diskJoules(),
            m.nodeJoules(nodeWatts) / base.nodeJoules(nodeWatts), m.seconds() / base.seconds()};
        String label = (m.workload().startsWith("bulk") ? "import" : "WordCount") + ", "
            + (m.setup() == Setup.PREDICTION ? "prediction" : "fixed timeout");
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
