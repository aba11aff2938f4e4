package org.locus.bench.checksum;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.locus.bench.report.BarChartSvg;
import org.locus.bench.report.TextTable;

/**
 * Turns the samples of {@code locus bench checksum} into its plain text table
 * ({@value #TABLE}), its results file ({@value #RESULTS}) and one bar chart per replication.
 *
 * <p>Ratios pair samples of the same round: a configuration's write MB/s over its stock
 * counterpart's, and its CPU over the stock CPU, one value per round; the table shows their
 * median and, with more than one round, their range.
 *
 * <pre>
 * { "schema": "locus-bench-checksum/1", "cluster": "...", "mib": 32, "rounds": 3,
 *   "blockBytes": 134217728, "configurations": [
 *     { "replication": 1, "writeBytes": 100, "bufferBytes": 0, "bytesPerChecksum": 512,
 *       "samples": [ { "round": 1, "writeNanos": 1, "writeCpuNanos": 1, "readNanos": 1,
 *                      "readCpuNanos": 1, "fileBytesPerChecksum": 512 }, ... ],
 *       "median": { "writeMBps": 1.0, "writeCpuMsPerMiB": 1.0, "readMBps": 1.0,
 *                   "readCpuMsPerMiB": 1.0 },
 *       "vsStock": { "writeMBps": { "median": 1.0, "min": 1.0, "max": 1.0 },
 *                    "writeCpu": {...}, "readMBps": {...}, "readCpu": {...} } }, ... ] }
 * </pre>
 */
final class ChecksumBenchReport {
  static final String TABLE = "checksum.txt";
  static final String RESULTS = "checksum.json";
  static final String SCHEMA = "locus-bench-checksum/1";
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private final ChecksumBenchRequest request;
  private final String cluster;
  private final Map<ChecksumSetting, List<ChecksumSample>> samples;

  /**
   * @param cluster one sentence on the cluster and the host's load
   * @param samples every configuration's samples in round order, in report order
   */
  ChecksumBenchReport(ChecksumBenchRequest request, String cluster,
      Map<ChecksumSetting, List<ChecksumSample>> samples) {
    this.request = request;
    this.cluster = cluster;
    this.samples = samples;
  }

  /** A ratio over the rounds; NaN throughout when no round gave one. */
  record Spread(double median, double min, double max) {
    /** No round had a stock value to divide by (below the CPU clock's resolution). */
    static final Spread UNDEFINED = new Spread(Double.NaN, Double.NaN, Double.NaN);
    static final Spread ONE = new Spread(1, 1, 1);

    boolean defined() {
      return !Double.isNaN(median);
    }

    static Spread of(double[] values) {
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      int n = sorted.length;
      double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
      return new Spread(median, sorted[0], sorted[n - 1]);
    }

    String text() {
      if (!defined()) {
        return "n/a";
      }
      return min == max ? String.format("%.2f", median)
          : String.format("%.2f (%.2f-%.2f)", median, min, max);
    }
  }

  /** Writes the table, the results file and the charts into {@code dir}; returns the table. */
  String write(File dir) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream text = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    text.printf("Checksum cost (seed 003 §3.4.1): a %d MiB file written and read back per"
        + " configuration, %d round(s), the configurations of a round in shuffled order.%n",
        request.mib(), request.rounds());
    text.println(cluster + ".");
    text.println("MB/s: 10^6 bytes per wall second. CPU: process CPU time (client, DataNodes"
        + " and NameNode share the JVM) per MiB. Reads use the write's call size (and buffer).");
    text.println("vs stock: over the stock configuration of the same round (512 B/checksum,"
        + " unbuffered, same write size and replication); median (min-max) over rounds."
        + " MB/s above 1 is faster, CPU below 1 is cheaper; n/a: the stock run's CPU time was"
        + " below the clock's resolution in every round (use a larger --mib).");
    TextTable table = new TextTable("r", "write", "buffer", "B/checksum", "write MB/s",
        "write CPU ms/MiB", "read MB/s", "read CPU ms/MiB", "write MB/s vs stock",
        "write CPU vs stock", "read MB/s vs stock", "read CPU vs stock");
    for (Map.Entry<ChecksumSetting, List<ChecksumSample>> e : samples.entrySet()) {
      ChecksumSetting s = e.getKey();
      table.row(s.replication(), TextTable.bytes(s.writeBytes()),
          s.buffered() ? TextTable.bytes(s.bufferBytes()) : "-", s.bytesPerChecksum(),
          String.format("%.1f", median(e.getValue(), this::writeMBps)),
          String.format("%.2f", median(e.getValue(), this::writeCpuMsPerMiB)),
          String.format("%.1f", median(e.getValue(), this::readMBps)),
          String.format("%.2f", median(e.getValue(), this::readCpuMsPerMiB)),
          vsStock(s, this::writeMBps).text(), vsStock(s, this::writeCpuMsPerMiB).text(),
          vsStock(s, this::readMBps).text(), vsStock(s, this::readCpuMsPerMiB).text());
    }
    table.print(text, "  ");
    String report = buffer.toString(StandardCharsets.UTF_8);
    Files.writeString(new File(dir, TABLE).toPath(), report, StandardCharsets.UTF_8);
    writeResults(new File(dir, RESULTS));
    for (int replication : request.replications()) {
      writeChart(new File(dir, chartName(replication)), replication);
    }
    return report;
  }

  /** @return the chart files {@link #write} leaves, one per replication */
  List<String> chartFiles() {
    return request.replications().stream()
        .map(r -> new File(request.out(), chartName(r)).getPath()).toList();
  }

  private static String chartName(int replication) {
    return "checksum-r" + replication + ".svg";
  }

  private double writeMBps(ChecksumSample s) {
    return ChecksumBench.megabytesPerSecond(request.fileBytes(), s.writeNanos());
  }

  private double readMBps(ChecksumSample s) {
    return ChecksumBench.megabytesPerSecond(request.fileBytes(), s.readNanos());
  }

  private double writeCpuMsPerMiB(ChecksumSample s) {
    return s.writeCpuNanos() / 1e6 / request.mib();
  }

  private double readCpuMsPerMiB(ChecksumSample s) {
    return s.readCpuNanos() / 1e6 / request.mib();
  }

  private static double median(List<ChecksumSample> list, ToDoubleFunction<ChecksumSample> f) {
    return Spread.of(list.stream().mapToDouble(f).toArray()).median();
  }

  /**
   * @return this configuration's value over its stock counterpart's, round by round: 1 for the
   *     stock configuration itself; rounds whose stock value is 0 are left out (process CPU
   *     time advances in clock ticks, 10 ms here, so a small file's read can measure 0), and
   *     with none left the ratio is undefined ("n/a")
   */
  private Spread vsStock(ChecksumSetting setting, ToDoubleFunction<ChecksumSample> f) {
    if (setting.equals(setting.stock())) {
      return Spread.ONE;
    }
    List<ChecksumSample> mine = samples.get(setting);
    List<ChecksumSample> stock = samples.get(setting.stock());
    double[] ratios = new double[mine.size()];
    int n = 0;
    for (int i = 0; i < mine.size(); i++) {
      double base = f.applyAsDouble(stock.get(i));
      if (base > 0) {
        ratios[n++] = f.applyAsDouble(mine.get(i)) / base;
      }
    }
    return n == 0 ? Spread.UNDEFINED : Spread.of(Arrays.copyOf(ratios, n));
  }

  private void writeResults(File file) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("schema", SCHEMA);
    root.put("cluster", cluster);
    root.put("mib", request.mib());
    root.put("rounds", request.rounds());
    root.put("blockBytes", ChecksumBenchRequest.BLOCK_BYTES);
    ArrayNode configurations = root.putArray("configurations");
    for (Map.Entry<ChecksumSetting, List<ChecksumSample>> e : samples.entrySet()) {
      ChecksumSetting s = e.getKey();
      ObjectNode node = configurations.addObject();
      node.put("replication", s.replication());
      node.put("writeBytes", s.writeBytes());
      node.put("bufferBytes", s.bufferBytes());
      node.put("bytesPerChecksum", s.bytesPerChecksum());
      ArrayNode list = node.putArray("samples");
      for (ChecksumSample sample : e.getValue()) {
        ObjectNode n = list.addObject();
        n.put("round", sample.round());
        n.put("writeNanos", sample.writeNanos());
        n.put("writeCpuNanos", sample.writeCpuNanos());
        n.put("readNanos", sample.readNanos());
        n.put("readCpuNanos", sample.readCpuNanos());
        n.put("fileBytesPerChecksum", sample.fileBytesPerChecksum());
      }
      ObjectNode median = node.putObject("median");
      median.put("writeMBps", median(e.getValue(), this::writeMBps));
      median.put("writeCpuMsPerMiB", median(e.getValue(), this::writeCpuMsPerMiB));
      median.put("readMBps", median(e.getValue(), this::readMBps));
      median.put("readCpuMsPerMiB", median(e.getValue(), this::readCpuMsPerMiB));
      ObjectNode vs = node.putObject("vsStock");
      spread(vs.putObject("writeMBps"), vsStock(s, this::writeMBps));
      spread(vs.putObject("writeCpu"), vsStock(s, this::writeCpuMsPerMiB));
      spread(vs.putObject("readMBps"), vsStock(s, this::readMBps));
      spread(vs.putObject("readCpu"), vsStock(s, this::readCpuMsPerMiB));
    }
    JSON.writeValue(file, root);
  }

  private static void spread(ObjectNode node, Spread spread) {
    if (!spread.defined()) {
      node.putNull("median");
      node.putNull("min");
      node.putNull("max");
      return;
    }
    node.put("median", spread.median());
    node.put("min", spread.min());
    node.put("max", spread.max());
  }

  /** Write CPU vs stock: one group per write pattern, one bar per checksum chunk. */
  private void writeChart(File file, int replication) throws IOException {
    List<ChecksumSetting> patterns = new ArrayList<>();
    for (ChecksumSetting s : samples.keySet()) {
      if (s.replication() == replication
          && s.bytesPerChecksum() == ChecksumBenchRequest.STOCK_BYTES_PER_CHECKSUM) {
        patterns.add(s);
      }
    }
    List<Integer> chunks = request.bytesPerChecksum();
    double[][] values = new double[chunks.size()][patterns.size()];
    for (int c = 0; c < chunks.size(); c++) {
      for (int p = 0; p < patterns.size(); p++) {
        ChecksumSetting pattern = patterns.get(p);
        Spread ratio = vsStock(new ChecksumSetting(replication, pattern.writeBytes(),
            pattern.bufferBytes(), chunks.get(c)), this::writeCpuMsPerMiB);
        values[c][p] = ratio.defined() ? ratio.median() : 0; // no bar where nothing measured
      }
    }
    BarChartSvg.write(file.toPath(), "Write CPU per MiB vs stock (512 B/checksum, unbuffered),"
        + " r=" + replication, "CPU / stock CPU",
        patterns.stream().map(s -> TextTable.bytes(s.writeBytes()) + " writes"
            + (s.buffered() ? " +buf" : "")).toList(),
        chunks.stream().map(c -> c + " B/checksum").toList(), values);
  }
}
