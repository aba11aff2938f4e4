package org.locus.cli.lowpower;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.locus.bench.report.TextTable;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.lowpower.amdahl.AmdahlNumber;
import org.locus.lowpower.amdahl.InstructionSource;
import org.locus.lowpower.amdahl.ProcessCpu;
import org.locus.lowpower.amdahl.TaskIo;

/**
 * {@code locus amdahl}: the Amdahl numbers of a cluster's task types in the form of seed 003
 * Table 4 — HDFS write and HDFS read measured by writing and reading a file, mapper and reducer
 * by a WordCount over it ({@code --job}).
 *
 * <p>CPU time: this client JVM plus, for a {@code locus cluster up} directory, the cluster
 * process (all DataNodes and the NameNode, from {@code /proc/PID/stat}); for jobs, the tasks'
 * own {@code CPU_MILLISECONDS}. I/O bytes follow the HDFS data path: a write of B bytes at
 * replication r puts r·B on disks and r·B through sockets (client to the first DataNode, then
 * the pipeline), plus the checksums; a read moves B from disk and B through a socket.
 */
public final class AmdahlCommand extends OptionsCommand {
  private static final String DIR = "/locus-amdahl";

  public AmdahlCommand() {
    super("locus amdahl");
  }

  @Override
  public String name() {
    return "amdahl";
  }

  @Override
  public String summary() {
    return "Amdahl numbers (I/O bits per instruction) per task type, seed 003 Table 4";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(ClientConfiguration.option())
        .addOption(Option.builder().longOpt("mib").hasArg().argName("N")
            .desc("size of the file written and read, MiB, 1..4096 (default 64)").build())
        .addOption(Option.builder().longOpt("job")
            .desc("also run WordCount over the file for the mapper and reducer rows "
                + "(needs a cluster with YARN)").build());
  }

  @Override
  protected String usageArguments() {
    return "--conf DIR [--mib N] [--job]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int mib = intOption(line, "mib", 64, 1, 4096);
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    Optional<Long> daemon = clusterPid(line.getOptionValue("conf"));
    InstructionSource source = InstructionSource.probe();
    FileSystem fs = FileSystem.get(conf);
    Path file = new Path(DIR, "data.txt");
    fs.delete(new Path(DIR), true);
    int replication = fs.getDefaultReplication(file);
    int bytesPerChecksum = conf.getInt("dfs.bytes-per-checksum", 512);
    List<TaskIo> rows = new ArrayList<>();
    rows.add(hdfsWrite(fs, file, (long) mib << 20, replication, bytesPerChecksum, daemon));
    rows.add(hdfsRead(fs, file, bytesPerChecksum, daemon));
    if (line.hasOption("job")) {
      rows.addAll(jobRows(conf, file, replication));
    }
    fs.delete(new Path(DIR), true);

    console.out().printf("Amdahl numbers (seed 003 Table 4): %d MiB, replication %d, %s%n", mib,
        replication, daemon.map(p -> "CPU = client + cluster process " + p)
            .orElse("CPU = client only (not a 'locus cluster up' directory)"));
    console.out().println(source.method());
    console.out().println("AD = disk bits / instruction, ADN = (disk + network) bits / "
        + "instruction; 1 is balanced.");
    TextTable table = new TextTable("task", "wall s", "CPU s", "disk MB", "net MB",
        source.counted() ? "MIPS" : "MIPS (est.)", source.counted() ? "AD" : "AD (est.)",
        source.counted() ? "ADN" : "ADN (est.)");
    for (TaskIo io : rows) {
      AmdahlNumber n = new AmdahlNumber(io, source.instructions(io));
      table.row(io.task(), String.format("%.1f", io.wallSeconds()),
          String.format("%.1f", io.cpuSeconds()), String.format("%.1f", io.diskBytes() / 1e6),
          String.format("%.1f", io.networkBytes() / 1e6),
          String.format("%.0f", n.millionInstructionsPerSecond()),
          String.format("%.3f", n.disk()), String.format("%.3f", n.diskAndNetwork()));
    }
    table.print(console.out(), "  ");
    return 0;
  }

  private static TaskIo hdfsWrite(FileSystem fs, Path file, long bytes, int replication,
      int bytesPerChecksum, Optional<Long> daemon) throws IOException {
    byte[] chunk = sampleChunk();
    CpuClock clock = new CpuClock(daemon);
    long written = 0;
    try (OutputStream out = fs.create(file, true)) {
      while (written < bytes) {
        int n = (int) Math.min(chunk.length, bytes - written);
        out.write(chunk, 0, n);
        written += n;
      }
    }
    long withChecksums = written + written / bytesPerChecksum * 4;
    return clock.stop("HDFS write", replication * withChecksums, replication * withChecksums);
  }

  private static TaskIo hdfsRead(FileSystem fs, Path file, int bytesPerChecksum,
      Optional<Long> daemon) throws IOException {
    byte[] buffer = new byte[64 * 1024];
    CpuClock clock = new CpuClock(daemon);
    long read = 0;
    try (InputStream in = fs.open(file)) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        read += n;
      }
    }
    long withChecksums = read + read / bytesPerChecksum * 4;
    return clock.stop("HDFS read", withChecksums, withChecksums);
  }

  private static List<TaskIo> jobRows(Configuration conf, Path input, int replication)
      throws Exception {
    Job job = WordCount.create(conf, input, new Path(DIR, "wordcount"), 2);
    JobOutcome outcome = JobOutcome.run(job, false);
    if (!outcome.succeeded()) {
      throw new LocusException("WordCount over " + input + " failed; see the cluster log");
    }
    return List.of(taskRow("mapper", job.getTaskReports(TaskType.MAP), replication, true),
        taskRow("reducer", job.getTaskReports(TaskType.REDUCE), replication, false));
  }

  /**
   * Mapper: reads its split from HDFS (disk at the DataNode and a socket to the task), spills
   * and merges map output on local disk. Reducer: fetches map output over the network, merges
   * on local disk, writes r replicas of its output through the pipeline.
   */
  private static TaskIo taskRow(String name, TaskReport[] reports, int replication,
      boolean map) throws LocusException {
    if (reports.length == 0) {
      throw new LocusException("no " + name + " task reports from the job history server");
    }
    double wall = 0;
    double cpu = 0;
    long disk = 0;
    long net = 0;
    for (TaskReport report : reports) {
      Counters c = report.getTaskCounters();
      wall += (report.getFinishTime() - report.getStartTime()) / 1000.0;
      cpu += c.findCounter(TaskCounter.CPU_MILLISECONDS).getValue() / 1000.0;
      long local = fsCounter(c, "FILE", FileSystemCounter.BYTES_READ)
          + fsCounter(c, "FILE", FileSystemCounter.BYTES_WRITTEN);
      if (map) {
        long in = fsCounter(c, "HDFS", FileSystemCounter.BYTES_READ);
        disk += local + in;
        net += in;
      } else {
        long out = fsCounter(c, "HDFS", FileSystemCounter.BYTES_WRITTEN) * replication;
        disk += local + out;
        net += c.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue() + out;
      }
    }
    return new TaskIo(name, wall, cpu, disk, net, -1);
  }

  private static long fsCounter(Counters c, String scheme, FileSystemCounter key) {
    return c.findCounter(scheme, key).getValue();
  }

  private static byte[] sampleChunk() throws IOException {
    StringBuilder text = new StringBuilder();
    new ZipfTextGenerator(50_000, 1.0, 7).lines(0, 1 << 20, l -> text.append(l).append('\n'));
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static Optional<Long> clusterPid(String confOption) throws IOException {
    if (confOption == null) {
      return Optional.empty();
    }
    File pidFile = new File(confOption, "cluster.pid");
    if (!pidFile.isFile()) {
      pidFile = new File(new File(confOption).getAbsoluteFile().getParentFile(), "cluster.pid");
    }
    if (!pidFile.isFile()) {
      return Optional.empty();
    }
    return Optional.of(Long.parseLong(Files.readString(pidFile.toPath()).trim()));
  }

  /** Wall and CPU time of this JVM and the cluster process between start and stop. */
  private static final class CpuClock {
    private final Optional<Long> daemon;
    private final long startNanos = System.nanoTime();
    private final double startCpu;

    CpuClock(Optional<Long> daemon) throws IOException {
      this.daemon = daemon;
      this.startCpu = cpuNow();
    }

    TaskIo stop(String task, long diskBytes, long networkBytes) throws IOException {
      return new TaskIo(task, (System.nanoTime() - startNanos) / 1e9, cpuNow() - startCpu,
          diskBytes, networkBytes, -1);
    }

    private double cpuNow() throws IOException {
      double own = ((com.sun.management.OperatingSystemMXBean)
          ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
      return own + (daemon.isPresent() ? ProcessCpu.seconds(daemon.get()) : 0);
    }
  }
}
