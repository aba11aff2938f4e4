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
import org.apache.hadoop.mapreduce.Job;
import org.locus.cli.Console;
import org.locus.cli.LocusException;
import org.locus.cli.OptionsCommand;
import org.locus.cli.UsageException;
import org.locus.cli.bench.BarChartSvg;
import org.locus.cli.energy.EnergyBenchCluster.Setup;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.accounting.PowerTimeComparison;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.WriteCorpus;

/**
 * {@code locus bench energy}: native HDFS vs energy-efficient HDFS without and with prediction,
 * side by side in one run on the same simulated hardware, for a write-heavy MapReduce job that
 * writes the corpus ({@link WriteCorpus}) and a read-intensive WordCount over it. Reports disk
 * and whole-node energy, time, Pt ratios, spin-ups and backup standby share in a Markdown
 * report with a chart.
 */
public final class EnergyBenchCommand extends OptionsCommand {
  static final String WRITE_HEAVY = "corpus write (write-heavy)";
  static final String READ_INTENSIVE = "WordCount (read-intensive)";
  /** Backups' idle timeout in the bench, scaled down from the 60 s default to keep it short. */
  static final long STANDBY_TIMEOUT_MILLIS = 20_000;

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
        + " corpus-writing job and WordCount";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
        .desc("report directory (default bench-results/energy)").build());
    options.addOption(Option.builder().longOpt("files").hasArg().argName("N")
        .desc("files of the WordCount corpus (default 48)").build());
    options.addOption(Option.builder().longOpt("write-files").hasArg().argName("N")
        .desc("files the write-heavy job writes, one map task each (default 16)").build());
    options.addOption(Option.builder().longOpt("file-kib").hasArg().argName("KIB")
        .desc("size of each corpus file in KiB (default 8192)").build());
    options.addOption(Option.builder().longOpt("setups").hasArg().argName("LIST")
        .desc("set-ups to run, comma-separated, native always included: native, energy,"
            + " prediction (default all)").build());
    options.addOption(Option.builder().longOpt("block-kib").hasArg().argName("KIB")
        .desc("HDFS block size in KiB (default 4096)").build());
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
    return "[--out DIR] [--files N] [--write-files N] [--file-kib KIB] [--block-kib KIB]"
        + " [--rounds N]"
        + " [--setups LIST] [--node-watts W]";
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
    int files = intOption(line, "files", 48, 1, 1024);
    int writeFiles = intOption(line, "write-files", 16, 1, 1024);
    int fileKib = intOption(line, "file-kib", 8192, 64, 1024 * 1024);
    int blockKib = intOption(line, "block-kib", 4096, 64, 1024 * 1024);
    if (blockKib % 64 != 0) {
      throw new UsageException("--block-kib must be a multiple of 64 (HDFS checksum chunks),"
          + " got " + blockKib);
    }
    double nodeWatts = nodeWatts(line.getOptionValue("node-watts",
        Double.toString(EnergyConfigKeys.NODE_BASE_WATTS_DEFAULT)));
    int rounds = intOption(line, "rounds", 2, 1, 10);
    List<Setup> setups = setups(line.getOptionValue("setups", "native,energy,prediction"));
    File out = new File(line.getOptionValue("out", "bench-results/energy")).getAbsoluteFile();
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new LocusException("cannot create report directory " + out);
    }
    List<Measurement> all = new ArrayList<>();
    try (PowerManagerLog log = PowerManagerLog.into(new File(out, "power-manager.log"));
        PrintWriter perRound = new PrintWriter(new File(out, "rounds.csv"),
            StandardCharsets.UTF_8)) {
      perRound.println("round,setup,workload,wall_ms,stall_ms,disk_joules,backup_spin_ups,"
          + "backup_standby_share");
      for (int round = 0; round < rounds; round++) {
        List<Setup> order = new ArrayList<>(setups);
        if (round % 2 == 1) {
          Collections.reverse(order);
        }
        for (Setup setup : order) {
          console.err().println("[bench energy] round " + (round + 1) + ": " + setup.label);
          log.mark("round " + (round + 1) + ": " + setup.label);
          for (Measurement m : runSetup(setup,
              new File(out, "cluster-" + setup.name().toLowerCase()),
              new Workloads(files, writeFiles, fileKib * 1024L), blockKib * 1024L, console,
              log)) {
            perRound.printf("%d,%s,%s,%d,%d,%.1f,%d,%.4f%n", round + 1,
                setup.name().toLowerCase(), m.workload(), m.wallMillis(), m.stallMillis(),
                m.diskJoules(), m.spinUps(), m.backupStandbyShare());
            perRound.flush();
            all.add(m);
          }
        }
      }
    }
    List<Measurement> results = average(all);
    String report = markdown(results, nodeWatts, files, writeFiles, fileKib, blockKib, rounds);
    Files.writeString(new File(out, "report.md").toPath(), report, StandardCharsets.UTF_8);
    writeChart(results, nodeWatts, out);
    console.out().print(report);
    console.out().println("report: " + new File(out, "report.md"));
    return 0;
  }

  private static double nodeWatts(String text) throws UsageException {
    try {
      double watts = Double.parseDouble(text.trim());
      if (watts >= 0 && watts < 100_000) {
        return watts;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--node-watts must be a number of watts, 0 or more, got '" + text
        + "'");
  }

  /** @return the set-ups named in {@code list}, native first */
  static List<Setup> setups(String list) throws UsageException {
    List<Setup> setups = new ArrayList<>(List.of(Setup.NATIVE));
    for (String name : list.split(",")) {
      String trimmed = name.trim().toUpperCase();
      if (trimmed.isEmpty()) {
        continue;
      }
      try {
        Setup setup = Setup.valueOf(trimmed);
        if (!setups.contains(setup)) {
          setups.add(setup);
        }
      } catch (IllegalArgumentException e) {
        throw new UsageException("--setups: unknown set-up '" + name.trim()
            + "'; choose from native, energy, prediction");
      }
    }
    return setups;
  }

  /**
   * One set-up on a fresh cluster: load the corpus (not measured), then the read-intensive
   * WordCount over it, then the write-heavy job writing a second dataset while the nodes hold
   * the corpus — a write job meets a cluster that already stores data, as in production.
   */
  static List<Measurement> runSetup(Setup setup, File dir, Workloads work, long blockBytes,
      Console console, PowerManagerLog log) throws Exception {
    List<Measurement> results = new ArrayList<>();
    try (EnergyBenchCluster bench =
        new EnergyBenchCluster(dir, setup, blockBytes, STANDBY_TIMEOUT_MILLIS)) {
      Path corpus = new Path("/bench/corpus");
      settle(bench, setup);
      log.mark("loading the corpus");
      console.err().printf("[bench energy]   loading the corpus: %d files of %d KiB%n",
          work.corpusFiles(), work.fileBytes() / 1024);
      run(WriteCorpus.create(bench.cluster().getConfiguration(), corpus, work.corpusFiles(),
          work.fileBytes(), 5000, 1.0, 42), "loading the corpus", setup);

      settle(bench, setup);
      log.mark(READ_INTENSIVE + " starts");
      Map<String, DiskEnergy> before = bench.accounts();
      JobOutcome job = run(WordCount.create(bench.cluster().getConfiguration(), corpus,
          new Path("/bench/wordcount"), 1), READ_INTENSIVE, setup);
      log.mark(READ_INTENSIVE + " ends");
      results.add(progress(console,
          measureThroughStall(bench, setup, READ_INTENSIVE, job.wallMillis(), before)));

      settle(bench, setup);
      log.mark(WRITE_HEAVY + " starts");
      before = bench.accounts();
      JobOutcome write = run(WriteCorpus.create(bench.cluster().getConfiguration(),
          new Path("/bench/written"), work.writeFiles(), work.fileBytes(), 5000, 1.0, 43),
          WRITE_HEAVY, setup);
      log.mark(WRITE_HEAVY + " ends");
      results.add(progress(console,
          measureThroughStall(bench, setup, WRITE_HEAVY, write.wallMillis(), before)));
    }
    return results;
  }

  /** Sizes of the bench's datasets. */
  record Workloads(int corpusFiles, int writeFiles, long fileBytes) {
  }

  private static JobOutcome run(Job job, String what, Setup setup)
      throws Exception {
    JobOutcome outcome = JobOutcome.run(job, false);
    if (!outcome.succeeded()) {
      throw new LocusException(what + " failed in set-up " + setup.label);
    }
    return outcome;
  }

  /**
   * Simulated disks do not delay I/O, so an access that met a sleeping disk did not wait in
   * this run although it would have on a real drive: its job ends {@code stall} later. The
   * time T is wall + stall, and the energy is accounted over the same T — the accounts are read
   * again {@code stall} after the job, so the spin-up in progress and every other disk's power
   * during the wait are in the figure, not cut off at the job's end.
   */
  private static Measurement measureThroughStall(EnergyBenchCluster bench, Setup setup,
      String workload, long wallMillis, Map<String, DiskEnergy> before) throws Exception {
    long stall = measure(setup, workload, wallMillis,
        EnergyBenchCluster.between(before, bench.accounts())).stallMillis();
    if (stall > 0) {
      Thread.sleep(stall);
    }
    Measurement m = measure(setup, workload, wallMillis,
        EnergyBenchCluster.between(before, bench.accounts()));
    return new Measurement(m.setup(), m.workload(), m.wallMillis(), stall, m.diskJoules(),
        m.spinUps(), m.backupStandbyShare());
  }

  private static Measurement progress(Console console, Measurement m) {
    console.err().printf("[bench energy]   %s: wall %.1f s, spin-up wait %.1f s, disks %.0f J,"
        + " backup spin-ups %d, backup standby %.1f %%%n", m.workload(), m.wallMillis() / 1000.0,
        m.stallMillis() / 1000.0, m.diskJoules(), m.spinUps(), 100 * m.backupStandbyShare());
    return m;
  }

  /**
   * Lets the machine calm down before a workload, the same way in every set-up: no disk busy
   * for 5 s; in the energy set-ups also every backup in standby, the steady state a workload
   * meets there.
   */
  private static void settle(EnergyBenchCluster bench, Setup setup) throws Exception {
    if (setup != Setup.NATIVE && !bench.awaitBackupsInStandby(120_000)) {
      throw new LocusException("backup disks did not reach standby within 120 s in "
          + setup.label);
    }
    if (!bench.awaitQuietDisks(5_000, 120_000)) {
      throw new LocusException("the disks did not fall quiet for 5 s within 120 s in "
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

  static String markdown(List<Measurement> results, double nodeWatts, int files,
      int writeFiles, int fileKib, int blockKib, int rounds) {
    StringBuilder md = new StringBuilder();
    md.append("# Energy-efficient HDFS bench\n\n")
        .append("Command: `bin/locus bench energy --files ").append(files)
        .append(" --write-files ").append(writeFiles)
        .append(" --file-kib ").append(fileKib).append(" --block-kib ").append(blockKib)
        .append(" --rounds ").append(rounds)
        .append("`; every figure is the mean of ").append(rounds)
        .append(" rounds, the set-up order mirrored every other round.\n\n")
        .append("3 nodes (embedded, own loopback hosts) with YARN, replication 3, block ")
        .append(blockKib).append(" KiB. WordCount reads a corpus of ").append(files)
        .append(" × ").append(fileKib).append(" KiB loaded before it (not measured); the")
        .append(" write-heavy job then writes ").append(writeFiles).append(" × ").append(fileKib)
        .append(" KiB more (a map-only MapReduce job) on the cluster holding the corpus.")
        .append(" Per node one primary disk and one backup volume that is a 3-drive RAID-5 array")
        .append(" (seed §4.3.3), all **simulated** from the Seagate Barracuda 7200.14 datasheet")
        .append(" (6.0 W active, 4.6 W idle, 0.75 W standby, 24 W / 10 s spin-up per drive).")
        .append(" Node power model: ").append(nodeWatts).append(" W per node besides disks.")
        .append(" Backups: fixed idle timeout ").append(STANDBY_TIMEOUT_MILLIS / 1000)
        .append(" s, the same minimum residency; prediction with a lead of one spin-up.")
        .append(" Each workload starts with every disk quiet for 5 s (and, energy-efficient,")
        .append(" every backup in standby).")
        .append(" Time T = measured wall time + the longest spin-up an access waited for")
        .append(" (simulated disks do not delay I/O; real ones would), and energy is accounted")
        .append(" over the same T: the disks' accounts are read again that long after the job.\n\n");
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
    md.append("\nEvery round's figures: `rounds.csv`; the power managers' decisions (wake-ups and")
        .append(" why) between the bench's marks: `power-manager.log`.\n");
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
        String label = (m.workload().equals(WRITE_HEAVY) ? "write job" : "WordCount") + " · "
            + (m.setup() == Setup.PREDICTION ? "prediction" : "timeout");
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
