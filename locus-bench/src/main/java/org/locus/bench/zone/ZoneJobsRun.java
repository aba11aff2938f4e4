package org.locus.bench.zone;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.application.ApplicationState;
import org.locus.bench.BenchException;
import org.locus.bench.zone.ZoneJobSet.PlannedJob;
import org.locus.jobs.WriteCorpus;
import org.locus.jobs.swim.SyntheticJob;
import org.locus.kit.LocusMiniCluster;
import org.locus.zone.yarn.EmbeddedHookInstall;

/**
 * One run of the zone bench with Hadoop jobs ({@code locus bench zone-jobs}): an embedded
 * one-node cluster whose whole directory — NameNode, DataNode volume, NodeManager local dirs —
 * lies on the given mounted file system (the emulated zoned HDD in {@code zonectl/bench/run
 * hadoop}), with the job-aware zone hook installed in the NodeManager and configured for one
 * {@link ZoneStrategy}. It writes the input pool, then runs the {@link ZoneJobSet} one job
 * after another, each submitted once the previous one is over on the node (finished in the
 * NodeManager, and with the hook on, the hook has released the area), and writes one
 * line per job and a summary line.
 *
 * <p>Times are wall-clock times measured here: a job's is submission to completion; the run's
 * total is the first submission to the moment the node is idle after the last job, so the
 * hook's switches and releases are inside it.
 */
public final class ZoneJobsRun {
  private static final long IDLE_WAIT_MS = 120_000;
  private static final long SPLIT_BYTES = 8L << 20;
  /**
   * HDFS block size. The NameNode places a block only on a volume with a whole block free per
   * block being written, and the held outer area is small: small blocks keep the few output
   * writers of a temp-class job from being refused while the monitor still sees room.
   */
  private static final long BLOCK_BYTES = 4L << 20;
  private static final int REDUCERS = 2;

  /** What one run is told. */
  public record Request(File mountPoint, String device, ZoneStrategy strategy, long diskBytes,
      int groups, double reduceOutputShare, String zonectl, File stateDir, File out) {
  }

  /** One job as it ran. */
  public record JobRecord(PlannedJob job, long wallMillis, boolean succeeded) {
  }

  private ZoneJobsRun() {
  }

  /** Runs the job set; progress on {@code err}. */
  public static List<JobRecord> run(Request request, PrintStream err) throws Exception {
    if (!request.mountPoint().isDirectory()) {
      throw new BenchException("--dir " + request.mountPoint() + " is not a directory");
    }
    List<PlannedJob> plan = ZoneJobSet.plan(request.diskBytes(), request.groups(),
        request.reduceOutputShare());
    long outer = outerBytes(request.diskBytes());
    EmbeddedHookInstall install = EmbeddedHookInstall.create();
    File clusterDir = new File(request.mountPoint(), "cluster");
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(clusterDir).nodes(1)
        .yarn(true);
    install.keys().forEach(builder::set);
    configure(builder, request, outer);
    List<JobRecord> records = new ArrayList<>();
    try (LocusMiniCluster cluster = builder.start()) {
      org.apache.hadoop.fs.Path pool = new org.apache.hadoop.fs.Path("/pool");
      NodeManager nm = cluster.getYarnCluster().getNodeManager(0);
      HookCounters hook = HookCounters.find();
      HookCounters counted = request.strategy() != ZoneStrategy.NORMAL ? hook : null;
      writePool(cluster.getConfiguration(), pool, ZoneJobSet.poolBytes(request.diskBytes()));
      waitUntilIdle(nm, counted, 1);
      long[] before = hook.counters();
      err.printf("zone-jobs: %s, %d jobs on %s (outer area %d MiB)%n",
          request.strategy().word(), plan.size(), request.device(), outer >> 20);
      long start = System.nanoTime();
      int done = 1;
      for (PlannedJob planned : plan) {
        Job job = SyntheticJob.create(cluster.getConfiguration(), pool,
            new org.apache.hadoop.fs.Path("/out/" + planned.name()), planned.targets(),
            SPLIT_BYTES, REDUCERS);
        job.setJobName(planned.name());
        long t0 = System.nanoTime();
        boolean ok = job.waitForCompletion(false);
        long wall = (System.nanoTime() - t0) / 1_000_000;
        done++;
        waitUntilIdle(nm, counted, done);
        records.add(new JobRecord(planned, wall, ok));
        err.printf("zone-jobs: %s %-16s %6.1f s %s%n", request.strategy().word(),
            planned.name(), wall / 1000.0, ok ? "ok" : "FAILED");
      }
      long total = (System.nanoTime() - start) / 1_000_000;
      long[] after = hook.counters();
      for (int i = 0; i < after.length; i++) {
        after[i] -= before[i];
      }
      write(request, records, total, after);
    } finally {
      FileUtil.fullyDelete(install.directory().toFile());
    }
    return records;
  }

  /**
   * The outer area: room for the largest job's intermediate data (map output spilled and
   * merged: twice its shuffle bytes) with a quarter to spare, as {@code zonectl/bench/run} sizes it.
   */
  static long outerBytes(long diskBytes) {
    double largest = 0;
    for (ZoneJobKind kind : ZoneJobKind.values()) {
      largest = Math.max(largest, kind.shuffleShare());
    }
    return Math.round(2 * largest * diskBytes * 1.25);
  }

  private static void configure(LocusMiniCluster.Builder builder, Request request,
      long outer) {
    // a hold makes df show the held area as used: the NodeManager's disk checker must not
    // call the local dir full because of it (docs/zone.md, the hook's limits)
    builder.set(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, "100");
    builder.set(YarnConfiguration.NM_MIN_PER_DISK_FREE_SPACE_MB, "0");
    // the one-node cluster's NameNode shares the zoned disk (a real NameNode does not sit on a
    // NodeManager's local-dir disk): its free-space check must not see the held area as a full
    // volume and put HDFS into safe mode
    builder.set("dfs.namenode.resource.du.reserved", "0");
    builder.set("dfs.replication", "1");
    builder.set("mapreduce.client.submit.file.replication", "1");
    builder.set("dfs.blocksize", Long.toString(BLOCK_BYTES));
    // the monitor keeps half the outer area's size free in a held area: the NameNode places a
    // block only where a whole block per block being written is free by the DataNode's last
    // heartbeat, and a temp-class job writes its staging and history files to HDFS too, so an
    // area run close to full fails the job (seen with a quarter: 12 MiB free, block refused).
    // The area then grows by what the largest job's data and the file system's own files in
    // the outer area take beyond half of it, not by the whole outer area's size
    long expandBelow = outer / 2;
    Map<String, String> keys = request.strategy().hookKeys(request.zonectl(),
        request.device(), request.mountPoint().getAbsolutePath(),
        request.stateDir().getAbsolutePath(), outer, expandBelow);
    keys.forEach(builder::set);
  }

  /**
   * Writes the input pool as a job does: a map-only MapReduce job named
   * {@link ZoneJobSet#POOL_JOB_NAME}, so that the hook places it as the strategy places any
   * job's permanent output (the seed's input was written by SWIM's own HDFS writer job).
   */
  private static void writePool(Configuration conf, org.apache.hadoop.fs.Path pool, long bytes)
      throws Exception {
    int files = 4;
    Job job = WriteCorpus.create(conf, pool, files, bytes / files, 5000, 1.0, 42);
    job.setJobName(ZoneJobSet.POOL_JOB_NAME);
    if (!job.waitForCompletion(false)) {
      throw new BenchException("the job writing the input pool failed: " + job.getStatus()
          .getFailureInfo() + "; see the log");
    }
  }

  /**
   * The zone hook's counters, read through JMX as an operator reads them: the metrics2 source
   * {@code LocusZone} (its service prefix is whichever daemon started the embedded cluster's
   * metrics system first).
   */
  record HookCounters(ObjectName bean) {
    static HookCounters find() throws JMException, BenchException {
      Set<ObjectName> names = ManagementFactory.getPlatformMBeanServer().queryNames(
          new ObjectName("Hadoop:name=LocusZone,*"), null);
      if (names.size() != 1) {
        throw new BenchException("expected one LocusZone metrics bean of the zone hook, found "
            + names + "; did the NodeManager load the hook from its aux-services manifest?"
            + " See the NodeManager log");
      }
      return new HookCounters(names.iterator().next());
    }

    /** @return switches, releases, expansions and failures, in that order */
    long[] counters() throws JMException {
      return new long[] {get("ZoneSwitches"), get("ZoneReleases"), get("ZoneExpansions"),
          get("ZoneFailures")};
    }

    long get(String attribute) throws JMException {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      return ((Number) server.getAttribute(bean, attribute)).longValue();
    }
  }

  /**
   * Waits until every application on the NodeManager is finished (its containers cleaned up,
   * the aux services told) and, with the hook on, the hook has
   * released the area after the {@code done}-th job ({@code hook} null: the hook is off).
   */
  private static void waitUntilIdle(NodeManager nm, HookCounters hook, int done)
      throws Exception {
    long deadline = System.currentTimeMillis() + IDLE_WAIT_MS;
    while (nm.getNMContext().getApplications().values().stream()
        .anyMatch(app -> app.getApplicationState() != ApplicationState.FINISHED)
        || (hook != null && hook.get("ZoneReleases") < done)) {
      if (System.currentTimeMillis() > deadline) {
        throw new BenchException("the node was not idle " + IDLE_WAIT_MS / 1000
            + " s after job " + done + " (applications: "
            + nm.getNMContext().getApplications().values().stream()
                .map(app -> app.getAppId() + " " + app.getApplicationState()).toList()
            + ", hook releases: "
            + (hook == null ? "-" : hook.get("ZoneReleases")) + "); see the NodeManager log");
      }
      Thread.sleep(50);
    }
  }

  /** {@code job NAME KIND WALL_MS ok|failed} lines, then {@code run ...} with the totals. */
  private static void write(Request request, List<JobRecord> records, long totalMillis,
      long[] counters) throws IOException {
    try (PrintWriter out = new PrintWriter(request.out(), StandardCharsets.UTF_8)) {
      for (JobRecord r : records) {
        out.printf("job\t%s\t%s\t%d\t%s%n", r.job().name(), r.job().kind().word(),
            r.wallMillis(), r.succeeded() ? "ok" : "failed");
      }
      out.printf("run\t%s\ttotal_ms=%d\tswitches=%d\treleases=%d\texpansions=%d"
          + "\tfailures=%d%n", request.strategy().word(), totalMillis, counters[0],
          counters[1], counters[2], counters[3]);
    }
  }
}
