package org.locus.bench.energy;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.mapreduce.Job;
import org.locus.bench.BenchException;
import org.locus.bench.energy.EnergyBenchCluster.Setup;
import org.locus.bench.replay.ReplayedJob;
import org.locus.bench.replay.SwimTraces;
import org.locus.bench.replay.TraceReplay;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.datanode.WakeRequests;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.WriteCorpus;
import org.locus.jobs.data.DataGenerators;
import org.locus.jobs.swim.SuiteJob;
import org.locus.jobs.swim.SwimScaling;
import org.locus.jobs.swim.SwimSuites;

/**
 * The energy bench ({@code locus bench energy}): native HDFS vs energy-efficient HDFS without and
 * with prediction, side by side in one run on the same simulated hardware, for a write-heavy
 * MapReduce job that writes the corpus ({@link WriteCorpus}), a read-intensive WordCount over
 * it, and a mixed workload: the first part of the Facebook 2009 SWIM trace replayed at its
 * (compressed) submission times ({@link TraceReplay}). Measures disk and whole-node energy,
 * time, spin-ups and backup standby share per set-up and workload; {@link EnergyReport} turns
 * them into the Markdown report and its chart.
 */
public final class EnergyBench {
  public static final String WRITE_HEAVY = "corpus write (write-heavy)";
  public static final String READ_INTENSIVE = "WordCount (read-intensive)";
  /**
   * With write off-loading: waking the backups after the write job and moving the replicas
   * staged for them, the cost the off-loaded jobs deferred.
   */
  public static final String MOVE_STAGED = "move of staged replicas (off-loading)";
  /** The SWIM trace replay: jobs that read, shuffle and write, overlapping at trace times. */
  public static final String MIXED = "SWIM FB-2009 replay (mixed)";
  /** The trace the mixed workload replays (bundled, first hour). */
  static final String SWIM_TRACE = "fb2009";
  /** Smallest and largest byte target of a replayed job ({@code locus bench swim}'s defaults). */
  static final long SWIM_MIN_BYTES = 64 * 1024;
  static final long SWIM_MAX_BYTES = 16 * 1024 * 1024;
  /** Reduce tasks of a replayed job that shuffles. */
  static final int SWIM_REDUCERS = 2;
  /** Backups' idle timeout in the bench, scaled down from the 60 s default to keep it short. */
  public static final long STANDBY_TIMEOUT_MILLIS = 20_000;

  /**
   * What to run.
   *
   * @param setups the set-ups, native first
   * @param nodeWatts node power besides disks
   * @param out the report directory
   * @param netnsHome the Locus checkout whose dist bundle netns clusters run; null for embedded
   *     clusters
   * @param swimHours the mixed workload replays the trace's first {@code swimHours} (0: no mixed
   *     workload)
   * @param swimCompression how many times faster than the trace its jobs are submitted
   */
  public record Request(int files, int writeFiles, int fileKib, int blockKib, int rounds,
      List<Setup> setups, double nodeWatts, File out, File netnsHome, double swimHours,
      double swimCompression) {

    /** @return whether the clusters are netns clusters (else embedded) */
    public boolean netns() {
      return netnsHome != null;
    }
  }

  private final Request request;

  public EnergyBench(Request request) {
    this.request = request;
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

  /**
   * Runs every set-up {@code rounds} times, reporting progress on {@code err}; writes
   * report.md, rounds.csv, ratios.csv, ratios.svg and power-manager.log into the report
   * directory and prints the report on {@code out}.
   */
  public void run(PrintStream out, PrintStream err) throws Exception {
    int files = request.files();
    int writeFiles = request.writeFiles();
    int fileKib = request.fileKib();
    int blockKib = request.blockKib();
    double nodeWatts = request.nodeWatts();
    int rounds = request.rounds();
    List<Setup> setups = request.setups();
    File dir = request.out();
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new BenchException("cannot create report directory " + dir);
    }
    List<SuiteJob> swimJobs = swimJobs(request.swimHours());
    List<Measurement> all = new ArrayList<>();
    try (PowerManagerLog log = PowerManagerLog.into(new File(dir, "power-manager.log"));
        PrintWriter perRound = new PrintWriter(new File(dir, "rounds.csv"),
            StandardCharsets.UTF_8)) {
      perRound.println("round,setup,workload,wall_ms,stall_ms,disk_joules,backup_spin_ups,"
          + "backup_standby_share");
      for (int round = 0; round < rounds; round++) {
        List<Setup> order = new ArrayList<>(setups);
        if (round % 2 == 1) {
          Collections.reverse(order);
        }
        for (Setup setup : order) {
          err.println("[bench energy] round " + (round + 1) + ": " + setup.label);
          log.mark("round " + (round + 1) + ": " + setup.label);
          File clusterDir = new File(dir, "cluster-" + setup.name().toLowerCase());
          long blockBytes = blockKib * 1024L;
          for (Measurement m : runSetup(setup,
              () -> request.netns()
                  ? EnergyBenchCluster.netns(clusterDir, setup, blockBytes,
                      STANDBY_TIMEOUT_MILLIS, request.netnsHome(), err)
                  : EnergyBenchCluster.embedded(clusterDir, setup, blockBytes,
                      STANDBY_TIMEOUT_MILLIS, err),
              new Workloads(files, writeFiles, fileKib * 1024L, swimJobs,
                  request.swimCompression()), err, log)) {
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
    String report = EnergyReport.markdown(results, nodeWatts, request, swimJobs.size());
    Files.writeString(new File(dir, "report.md").toPath(), report, StandardCharsets.UTF_8);
    EnergyReport.writeChart(results, nodeWatts, dir);
    out.print(report);
    out.println("report: " + new File(dir, "report.md"));
  }

  /**
   * @return the jobs of the trace's first {@code hours}, bytes divided by the traced cluster's
   *     size over ours; none for 0 hours
   */
  static List<SuiteJob> swimJobs(double hours) throws IOException, BenchException {
    if (hours == 0) {
      return List.of();
    }
    SwimScaling scaling = new SwimScaling((double) SwimScaling.FB2009_NODES
        / EnergyBenchCluster.NODES, SWIM_MIN_BYTES, SWIM_MAX_BYTES);
    List<SuiteJob> jobs = SwimSuites.replay(SWIM_TRACE,
        SwimTraces.load(SWIM_TRACE, SwimScaling.FB2009_NODES).jobs(), hours, scaling);
    if (jobs.isEmpty()) {
      throw new BenchException("the " + SWIM_TRACE + " trace submits no job in its first "
          + hours + " h; choose more hours");
    }
    return jobs;
  }

  /**
   * One set-up on a fresh cluster: load the corpus (not measured), then the read-intensive
   * WordCount over it, then the write-heavy job writing a second dataset while the nodes hold
   * the corpus — a write job meets a cluster that already stores data, as in production — then,
   * if asked for, the SWIM replay over an input pool loaded before it (not measured).
   */
  static List<Measurement> runSetup(Setup setup, ClusterStarter starter, Workloads work,
      PrintStream err, PowerManagerLog log) throws Exception {
    List<Measurement> results = new ArrayList<>();
    try (EnergyBenchTarget bench = starter.start()) {
      Path corpus = new Path("/bench/corpus");
      settle(bench, setup);
      log.mark("loading the corpus");
      err.printf("[bench energy]   loading the corpus: %d files of %d KiB%n",
          work.corpusFiles(), work.fileBytes() / 1024);
      run(WriteCorpus.create(bench.conf(), corpus, work.corpusFiles(),
          work.fileBytes(), 5000, 1.0, 42), "loading the corpus", setup);
      if (setup == Setup.OFFLOAD) {
        // the corpus reaches the backups before the jobs, as in the other set-ups
        moveStagedReplicas(bench, List.of(corpus));
      }

      settle(bench, setup);
      log.mark(READ_INTENSIVE + " starts");
      Map<String, DiskEnergy> before = bench.accounts();
      JobOutcome job = run(WordCount.create(bench.conf(), corpus,
          new Path("/bench/wordcount"), 1), READ_INTENSIVE, setup);
      log.mark(READ_INTENSIVE + " ends");
      results.add(progress(err,
          measureThroughStall(bench, setup, READ_INTENSIVE, job.wallMillis(), before)));

      settle(bench, setup);
      log.mark(WRITE_HEAVY + " starts");
      before = bench.accounts();
      JobOutcome write = run(WriteCorpus.create(bench.conf(),
          new Path("/bench/written"), work.writeFiles(), work.fileBytes(), 5000, 1.0, 43),
          WRITE_HEAVY, setup);
      log.mark(WRITE_HEAVY + " ends");
      results.add(progress(err,
          measureThroughStall(bench, setup, WRITE_HEAVY, write.wallMillis(), before)));

      List<Path> written = new ArrayList<>(List.of(new Path("/bench/wordcount"),
          new Path("/bench/written")));
      if (!work.swimJobs().isEmpty()) {
        Path swim = new Path("/bench/swim");
        results.add(progress(err, replaySwim(bench, setup, work, swim, err, log)));
        written.add(swim);
      }

      if (setup == Setup.OFFLOAD) {
        log.mark(MOVE_STAGED + " starts");
        before = bench.accounts();
        long start = System.nanoTime();
        moveStagedReplicas(bench, written);
        long wall = (System.nanoTime() - start) / 1_000_000;
        log.mark(MOVE_STAGED + " ends");
        results.add(progress(err, measure(setup, MOVE_STAGED, wall,
            EnergyBenchTarget.between(before, bench.accounts()))));
      }
    }
    return results;
  }

  /**
   * The mixed workload: writes the replay's input pool (as large as its largest input; not
   * measured), lets the cluster settle, then replays the trace's jobs at their compressed
   * submission times. Its time is the replay's makespan, from the first submission to the last
   * job's end.
   */
  private static Measurement replaySwim(EnergyBenchTarget bench, Setup setup, Workloads work,
      Path root, PrintStream err, PowerManagerLog log) throws Exception {
    FileSystem fs = FileSystem.get(bench.conf());
    Path pool = new Path(root, "pool");
    long poolBytes = work.swimJobs().stream().mapToLong(j -> j.targets().inputBytes()).max()
        .orElseThrow();
    err.printf("[bench energy]   loading the SWIM input pool: %d KiB%n", poolBytes / 1024);
    log.mark("loading the SWIM input pool");
    new DataGenerators().get("text").write(fs, pool, poolBytes, 4, 44);
    if (setup == Setup.OFFLOAD) {
      moveStagedReplicas(bench, List.of(pool));
    }
    settle(bench, setup);
    log.mark(MIXED + " starts");
    err.printf("[bench energy]   %s: %d jobs, %s times faster than the trace%n", MIXED,
        work.swimJobs().size(), work.swimCompression());
    Map<String, DiskEnergy> before = bench.accounts();
    long start = System.nanoTime();
    List<ReplayedJob> replayed = new TraceReplay(work.swimJobs(), work.swimCompression(),
        SWIM_REDUCERS, err).replay(bench.conf(), pool, new Path(root, "out"));
    long wall = (System.nanoTime() - start) / 1_000_000;
    log.mark(MIXED + " ends");
    List<String> failed = replayed.stream().filter(j -> !j.succeeded())
        .map(j -> j.name() + (j.error() == null ? "" : " (" + j.error() + ")")).toList();
    if (!failed.isEmpty()) {
      throw new BenchException(MIXED + " in set-up " + setup.label + ": jobs failed: "
          + String.join(", ", failed));
    }
    return measureThroughStall(bench, setup, MIXED, wall, before);
  }

  /**
   * Wakes every backup (a wake request, as {@code locus energy wake} files it) and waits until
   * every block under {@code paths} has its WARM placement again, one primary and the rest on
   * backups: the staged replicas have moved.
   */
  private static void moveStagedReplicas(EnergyBenchTarget bench, List<Path> paths)
      throws Exception {
    FileSystem fs = FileSystem.get(bench.conf());
    WakeRequests.request(fs, bench.conf(), WakeRequests.ALL, "bench: move staged replicas");
    long deadline = System.nanoTime() + 600_000_000_000L;
    while (!warmPlacement(fs, paths)) {
      if (System.nanoTime() > deadline) {
        throw new BenchException("staged replicas under " + paths
            + " did not reach the backups within 10 min");
      }
      Thread.sleep(250);
    }
  }

  private static boolean warmPlacement(FileSystem fs, List<Path> paths) throws IOException {
    for (Path path : paths) {
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(path, true);
      while (files.hasNext()) {
        for (BlockLocation block : files.next().getBlockLocations()) {
          long disks = Arrays.stream(block.getStorageTypes())
              .filter(t -> t == StorageType.DISK).count();
          if (disks > 1) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /** Starts one set-up's cluster. */
  interface ClusterStarter {
    EnergyBenchTarget start() throws IOException;
  }

  /** Sizes of the bench's datasets, and the mixed workload's jobs (none: left out). */
  record Workloads(int corpusFiles, int writeFiles, long fileBytes, List<SuiteJob> swimJobs,
      double swimCompression) {
  }

  private static JobOutcome run(Job job, String what, Setup setup)
      throws Exception {
    JobOutcome outcome = JobOutcome.run(job, false);
    if (!outcome.succeeded()) {
      throw new BenchException(what + " failed in set-up " + setup.label);
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
  private static Measurement measureThroughStall(EnergyBenchTarget bench, Setup setup,
      String workload, long wallMillis, Map<String, DiskEnergy> before) throws Exception {
    long stall = measure(setup, workload, wallMillis,
        EnergyBenchTarget.between(before, bench.accounts())).stallMillis();
    if (stall > 0) {
      Thread.sleep(stall);
    }
    Measurement m = measure(setup, workload, wallMillis,
        EnergyBenchTarget.between(before, bench.accounts()));
    return new Measurement(m.setup(), m.workload(), m.wallMillis(), stall, m.diskJoules(),
        m.spinUps(), m.backupStandbyShare());
  }

  private static Measurement progress(PrintStream err, Measurement m) {
    err.printf("[bench energy]   %s: wall %.1f s, spin-up wait %.1f s, disks %.0f J,"
        + " backup spin-ups %d, backup standby %.1f %%%n", m.workload(), m.wallMillis() / 1000.0,
        m.stallMillis() / 1000.0, m.diskJoules(), m.spinUps(), 100 * m.backupStandbyShare());
    return m;
  }

  /**
   * Lets the machine calm down before a workload, the same way in every set-up: no disk busy
   * for 5 s; in the energy set-ups also every backup in standby, the steady state a workload
   * meets there.
   */
  private static void settle(EnergyBenchTarget bench, Setup setup) throws Exception {
    if (setup != Setup.NATIVE && !bench.awaitBackupsInStandby(120_000)) {
      throw new BenchException("backup disks did not reach standby within 120 s in "
          + setup.label);
    }
    if (!bench.awaitQuietDisks(5_000, 120_000)) {
      throw new BenchException("the disks did not fall quiet for 5 s within 120 s in "
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
}
