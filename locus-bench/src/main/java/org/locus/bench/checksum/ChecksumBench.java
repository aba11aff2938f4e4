package org.locus.bench.checksum;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import com.sun.management.OperatingSystemMXBean;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.locus.bench.BenchException;
import org.locus.bench.report.TextTable;
import org.locus.kit.LocusMiniCluster;

/**
 * The checksum bench ({@code locus bench checksum}): what a file's checksum chunk
 * ({@code dfs.bytes-per-checksum}) and the client's write size cost on writes and reads, and
 * whether wrapping the HDFS stream in a {@code BufferedOutputStream} still pays (seed 003
 * §3.4.1: in Hadoop 0.20.2 each small write paid one JNI CRC call, buffering reducer output
 * doubled a job at r=1, and chunks past 4096 bytes "hardly" helped).
 *
 * <p>One embedded cluster (as many DataNodes as the largest replication, all in this JVM) serves
 * every configuration; the chunk is chosen per file, so the cluster never restarts. Each round
 * measures every configuration once, in an order shuffled per round, so configurations are
 * side by side in time and a load change on the host hits them alike; each configuration is
 * reported as a ratio to its stock counterpart of the same round (512-byte chunk, unbuffered,
 * same write size and replication). CPU is the process's: client and cluster together.
 */
public final class ChecksumBench {
  private static final Path DIR = new Path("/bench/checksum");
  private static final long SEED = 3;
  private static final int WARM_UP_MIB = 4;
  /**
   * Closing a file asks the NameNode to complete it; when the DataNodes' block reports have not
   * reached it yet, the stock client sleeps 400 ms before asking again, which on this cluster
   * happens on nearly every close and would add a fixed 0.4 s per file that has nothing to do
   * with checksums. The bench's client asks again after 5 ms, doubling, up to 12 times (20 s
   * in all, so a loaded host still completes).
   */
  private static final int COMPLETE_RETRY_MILLIS = 5;
  private static final int COMPLETE_RETRIES = 12;
  /**
   * Process CPU time: every thread of the JVM, including those that ended during the span
   * (each block transfer's DataXceiver), which per-thread clocks would miss. On Linux the JDK
   * reads it with times(2), in 10 ms ticks.
   */
  private static final OperatingSystemMXBean OS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private final ChecksumBenchRequest request;

  public ChecksumBench(ChecksumBenchRequest request) {
    this.request = request;
  }

  /**
   * Runs the bench, reporting progress on {@code err}; writes the table, the results file and
   * the charts into the request's directory and prints the table on {@code out}.
   *
   * @throws BenchException if a file did not read back as written or does not carry the chunk
   *     it was written with
   */
  public void run(PrintStream out, PrintStream err) throws Exception {
    File dir = request.out();
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new BenchException("cannot create report directory " + dir);
    }
    List<ChecksumSetting> settings = request.settings();
    Map<ChecksumSetting, List<ChecksumSample>> samples = new LinkedHashMap<>();
    settings.forEach(s -> samples.put(s, new ArrayList<>()));
    String loadBefore = loadAverage();
    long start = System.nanoTime();
    String checksumType = null;
    File work = Files.createTempDirectory("locus-bench-checksum").toFile();
    try (LocusMiniCluster cluster = LocusMiniCluster.builder(work).nodes(request.nodes())
        .volumes(StorageType.DISK)
        .set(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY,
            Integer.toString(COMPLETE_RETRY_MILLIS))
        .set(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_RETRIES_KEY,
            Integer.toString(COMPLETE_RETRIES))
        .start()) {
      FileSystem fs = cluster.getFileSystem();
      err.printf("[bench checksum] embedded cluster of %d DataNodes up; %d configurations x %d"
          + " rounds of a %d MiB file%n", request.nodes(), settings.size(), request.rounds(),
          request.mib());
      warmUp(fs, settings, err);
      ChecksumWorkload workload = new ChecksumWorkload(request.fileBytes(), maxWriteBytes(),
          SEED);
      for (int round = 1; round <= request.rounds(); round++) {
        List<ChecksumSetting> order = new ArrayList<>(settings);
        Collections.shuffle(order, new Random(round));
        for (int i = 0; i < order.size(); i++) {
          ChecksumSetting setting = order.get(i);
          Measured measured = measure(fs, workload, setting, round);
          checksumType = measured.checksum().getChecksumType().name();
          samples.get(setting).add(measured.sample());
          err.printf("[bench checksum] round %d/%d, %d/%d: %s: write %.1f MB/s, read %.1f"
              + " MB/s%n", round, request.rounds(), i + 1, order.size(), setting,
              megabytesPerSecond(request.fileBytes(), measured.sample().writeNanos()),
              megabytesPerSecond(request.fileBytes(), measured.sample().readNanos()));
        }
      }
    } finally {
      FileUtil.fullyDelete(work);
    }
    String cluster = String.format("Embedded cluster of %d DataNodes and a NameNode in this JVM"
        + " (locus-cluster-kit, one loopback address and one DISK volume each), checksum type"
        + " %s, the client re-asking to complete a file after %d ms (stock: 400 ms); host load"
        + " average %s before, %s after, on %d CPUs", request.nodes(),
        checksumType, COMPLETE_RETRY_MILLIS, loadBefore, loadAverage(),
        Runtime.getRuntime().availableProcessors());
    ChecksumBenchReport report = new ChecksumBenchReport(request, cluster, samples);
    out.print(report.write(dir));
    out.printf("%ntable: %s, results: %s, charts: %s (%.0f s)%n",
        new File(dir, ChecksumBenchReport.TABLE), new File(dir, ChecksumBenchReport.RESULTS),
        String.join(", ", report.chartFiles()), (System.nanoTime() - start) / 1e9);
  }

  /** A sample and the checksum the written file carried. */
  private record Measured(ChecksumSample sample, ChecksumOpt checksum) {
  }

  /**
   * Writes, checks the chunk, reads back, deletes. The heap is collected before each timed
   * span so that one configuration's garbage is not collected on another's clock.
   */
  private static Measured measure(FileSystem fs, ChecksumWorkload workload,
      ChecksumSetting setting, int round) throws IOException, BenchException {
    Path path = new Path(DIR, "round-" + round);
    System.gc();
    long cpu = OS.getProcessCpuTime();
    long wall = System.nanoTime();
    workload.write(fs, path, setting);
    long writeNanos = System.nanoTime() - wall;
    long writeCpu = OS.getProcessCpuTime() - cpu;
    ChecksumOpt checksum = ChecksumWorkload.checksumOf(fs, path);
    if (checksum.getBytesPerChecksum() != setting.bytesPerChecksum()) {
      throw new BenchException(path + " was written with " + setting.bytesPerChecksum()
          + "-byte chunks but carries " + checksum.getBytesPerChecksum() + "-byte ones ("
          + setting + ")");
    }
    System.gc();
    cpu = OS.getProcessCpuTime();
    wall = System.nanoTime();
    workload.readAndCompare(fs, path, setting);
    long readNanos = System.nanoTime() - wall;
    long readCpu = OS.getProcessCpuTime() - cpu;
    fs.delete(path, false);
    return new Measured(new ChecksumSample(round, writeNanos, writeCpu, readNanos, readCpu,
        checksum.getBytesPerChecksum()), checksum);
  }

  /**
   * Writes and reads a small file once per write pattern, unmeasured, so that the first
   * configurations measured do not pay for class loading and JIT compilation.
   */
  private void warmUp(FileSystem fs, List<ChecksumSetting> settings, PrintStream err)
      throws IOException, BenchException {
    ChecksumWorkload small = new ChecksumWorkload(
        Math.min(request.fileBytes(), (long) WARM_UP_MIB << 20), maxWriteBytes(), SEED);
    List<ChecksumSetting> patterns = settings.stream()
        .filter(s -> s.bytesPerChecksum() == ChecksumBenchRequest.STOCK_BYTES_PER_CHECKSUM
            && s.replication() == request.replications().get(0))
        .toList();
    err.printf("[bench checksum] warming up: %d write patterns, %s each, not measured%n",
        patterns.size(), TextTable.bytes(small.fileBytes()));
    for (ChecksumSetting setting : patterns) {
      measure(fs, small, setting, 0);
    }
  }

  private int maxWriteBytes() {
    return request.writeSizes().get(request.writeSizes().size() - 1);
  }

  static double megabytesPerSecond(long bytes, long nanos) {
    return bytes * 1e3 / nanos;
  }

  /**
   * @return the host's 1-minute load average, from {@code /proc/loadavg}; "unknown" where
   *     there is none (it only describes the conditions in the report)
   */
  private static String loadAverage() {
    try {
      return Files.readString(Paths.get("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }
}
