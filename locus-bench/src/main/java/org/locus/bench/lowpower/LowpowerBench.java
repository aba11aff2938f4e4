package org.locus.bench.lowpower;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.locus.bench.BenchException;
import org.locus.bench.run.ClusterRecipe;
import org.locus.bench.run.NetnsCluster;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;
import org.locus.netns.NodeCgroup;
import org.locus.netns.NodeCpus;
import org.locus.netns.Rate;
import org.locus.netns.ResourceLedger;

/**
 * {@code locus bench lowpower} (issue 14 item 5): seed 003's remedies on weak nodes, each
 * side by side with stock. Two netns clusters run at once, HDFS only, every node limited to
 * {@code nodeCpus} cores by its CPU cgroup: a stock one, and one with
 * {@code --feature lowpower} (DataNodes write block files with O_DIRECT). In each round every
 * row ({@link LowpowerSetting}) at every replication runs once, in an order shuffled per round:
 * an {@link HdfsWriteProbe} JVM inside node1 writes and reads back the data, measuring wall
 * time and the CPU of the client and of every DataNode. Direct-I/O rows write to the second
 * cluster; the others to the stock one with their chunk or codec. Each row is reported as the
 * ratio to the stock row of the same round ({@link LowpowerBenchReport}).
 */
public final class LowpowerBench {
  private static final long PROBE_TIMEOUT_MINUTES = 20;
  private static final long DISK_BYTES = 2L << 30;

  private final LowpowerBenchRequest request;
  private final PrintStream progress;

  public LowpowerBench(LowpowerBenchRequest request, PrintStream progress) {
    this.request = request;
    this.progress = progress;
  }

  /** @return the report file */
  public File run() throws Exception {
    File out = request.out().getAbsoluteFile();
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new BenchException("cannot create " + out);
    }
    List<LowpowerSetting> settings = LowpowerSetting.all(!request.optInJars().isEmpty());
    List<ProbeSample> samples = new ArrayList<>();
    File tsv = new File(out, "samples.tsv");
    try (NetnsCluster stock = start("stock", Map.of(), "stock HDFS");
        NetnsCluster direct = start("direct-io", request.lowpowerKeys(), "--feature lowpower")) {
      int total = request.rounds() * settings.size() * request.replications().size();
      int done = 0;
      for (int round = 1; round <= request.rounds(); round++) {
        List<Object[]> cells = new ArrayList<>();
        for (LowpowerSetting setting : settings) {
          for (int r : request.replications()) {
            cells.add(new Object[] {setting, r});
          }
        }
        Collections.shuffle(cells, new Random(round));
        for (Object[] cell : cells) {
          LowpowerSetting setting = (LowpowerSetting) cell[0];
          int r = (Integer) cell[1];
          ProbeSample sample = probe((setting.directWrites() ? direct : stock).directory(),
              setting, r, round);
          samples.add(sample);
          writeSamples(tsv, samples);
          done++;
          progress.printf(Locale.ROOT, "[%d/%d] round %d %s r=%d: write %.1f MB/s, read %.1f"
              + " MB/s, write CPU %.1f s/GiB%n", done, total, round, setting.label(), r,
              sample.writeMBps(), sample.readMBps(), sample.writeCpuSecondsPerGiB());
        }
      }
    }
    LowpowerBenchReport report = new LowpowerBenchReport(samples, settings,
        request.replications());
    report.chart(new File(out, "lowpower-bench.svg").toPath());
    File md = new File(out, "report.md");
    Files.writeString(md.toPath(), markdown(settings, report), StandardCharsets.UTF_8);
    return md;
  }

  /**
   * @param name the cluster's directory under {@link LowpowerBenchRequest#clusters()}
   * @param what what the cluster is for, for the error when it does not start
   * @return one of the bench's clusters: HDFS only, every node's CPU capped, its devices
   *     throttled, {@code keys} on top
   */
  private NetnsCluster start(String name, Map<String, String> keys, String what)
      throws IOException {
    ClusterRecipe recipe = ClusterRecipe.builder(request.nodes())
        .yarn(false)
        .diskRate(request.diskRate())
        .nodeMemory(request.nodeMemoryBytes())
        .nodeCpus(request.nodeCpus())
        .diskSize(DISK_BYTES)
        .setAll(keys)
        .build();
    return NetnsCluster.start(new File(request.clusters(), name), recipe, what, request.home(),
        progress);
  }

  private ProbeSample probe(ClusterDirectory dir, LowpowerSetting setting, int r, int round)
      throws Exception {
    ClusterLayout layout = new ClusterLayout(dir.root());
    List<String> datanodes = new ArrayList<>();
    for (String node : ClusterLayout.workers(request.nodes())) {
      datanodes.add(Files.readString(layout.daemonPid(node, "datanode").toPath()).trim());
    }
    String classpath = System.getProperty("java.class.path") + request.optInJars().stream()
        .map(f -> File.pathSeparator + f.getAbsolutePath()).collect(Collectors.joining());
    List<String> java = List.of(DaemonLauncher.javaBinary(), "-Xmx256m", "-XX:+UseSerialGC",
        "-cp", classpath, HdfsWriteProbe.class.getName(), dir.root().getPath(),
        "/bench/lowpower/" + setting.label() + "-r" + r, Long.toString(request.bytes()),
        Integer.toString(r), Integer.toString(setting.bytesPerChecksum()), setting.codec(),
        String.join(",", datanodes));
    DaemonLauncher launcher = new DaemonLauncher(layout,
        NodeCgroup.forHost(layout, new ResourceLedger(layout.ledgerFile())));
    Process process = new ProcessBuilder(launcher.inNode("node1", java))
        .redirectErrorStream(true).start();
    String output;
    try (InputStream in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!process.waitFor(PROBE_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new BenchException("the probe of " + setting.label() + " r=" + r + " ran over "
          + PROBE_TIMEOUT_MINUTES + " minutes");
    }
    if (process.exitValue() != 0) {
      throw new BenchException("the probe of " + setting.label() + " r=" + r + " in "
          + dir.root() + " failed (exit " + process.exitValue() + "):\n" + tail(output));
    }
    return ProbeSample.parse(setting.label(), r, round, output).orElseThrow(
        () -> new BenchException("the probe of " + setting.label() + " r=" + r
            + " printed no result:\n" + tail(output)));
  }

  private static void writeSamples(File tsv, List<ProbeSample> samples) throws IOException {
    StringBuilder text = new StringBuilder(ProbeSample.TSV_HEADER).append('\n');
    samples.forEach(s -> text.append(s.tsv()).append('\n'));
    Files.writeString(tsv.toPath(), text, StandardCharsets.UTF_8);
  }

  private String markdown(List<LowpowerSetting> settings, LowpowerBenchReport report) {
    StringBuilder md = new StringBuilder("# Low-power remedies bench\n\n");
    md.append(String.format(Locale.ROOT, "Two %d-node netns clusters side by side (stock, and"
        + " `--feature lowpower`), HDFS only, each node limited to **%s %s** by its CPU"
        + " cgroup (`--node-cpus`: **emulated** weak cores: a quota on this host's cores, not"
        + " low-power hardware). Each probe is a JVM inside node1 (client and DataNode share"
        + " that node's quota) writing %d MiB of Zipf text and reading it back, checked by CRC;"
        + " %d round(s), every row and replication once per round in a shuffled order. Ratios"
        + " are to the stock row of the same round, averaged over rounds.%n%n", request.nodes(),
        NodeCpus.format(request.nodeCpus()), request.nodeCpus() == 1 ? "core" : "cores",
        request.bytes() >> 20, request.rounds()));
    md.append(request.diskRate() == 0
        ? "DataNode devices unthrottled (`--disk-rate none`): loop devices on this host's disk,"
            + " written through the page cache.\n\n"
        : String.format(Locale.ROOT, "Every DataNode device throttled to %s read and write"
            + " by its node's cgroup (`--disk-rate`: **emulated** disks).%n%n",
            Rate.formatDisk(request.diskRate())));
    md.append("| row | remedy |\n|---|---|\n");
    Map<String, String> remedies = new LinkedHashMap<>();
    settings.forEach(s -> remedies.put(s.label(), s.remedy()));
    remedies.forEach((label, remedy) -> md.append("| ").append(label).append(" | ")
        .append(remedy).append(" |\n"));
    if (request.optInJars().isEmpty()) {
      md.append("\nNo LZO row: run with `--opt-in locus-lzo/target/opt-in` (GPL-3.0 bundle)"
          + " to add it.\n");
    }
    md.append('\n').append(report.table());
    md.append("\nA codec row's \"write MB/s\" counts the bytes before compression (what the"
        + " job produced); \"stored / written\" is what reached HDFS per byte written."
        + " CPU is process time in 10 ms ticks.\n");
    md.append("\n![throughput × stock](lowpower-bench.svg)\n");
    md.append("\nRaw samples: `samples.tsv`.\n");
    return md.toString();
  }

  private static String tail(String output) {
    String[] lines = output.split("\n");
    return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 20),
        lines.length));
  }
}
