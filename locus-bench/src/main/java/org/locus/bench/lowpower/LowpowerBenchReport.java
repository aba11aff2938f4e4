package org.locus.bench.lowpower;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

import org.locus.bench.report.BarChartSvg;

/**
 * The low-power bench's report from its samples: per replication and row, mean write and read
 * throughput and write CPU per GiB, each also as the mean over rounds of the ratio to the
 * stock row of the <em>same round</em> (side by side in time, so a load change on the host
 * hits both); and a chart of the write ratios.
 */
public final class LowpowerBenchReport {
  private final List<ProbeSample> samples;
  private final List<LowpowerSetting> settings;
  private final List<Integer> replications;

  public LowpowerBenchReport(List<ProbeSample> samples, List<LowpowerSetting> settings,
      List<Integer> replications) {
    this.samples = List.copyOf(samples);
    this.settings = List.copyOf(settings);
    this.replications = List.copyOf(replications);
  }

  /**
   * @return mean over rounds of {@code metric(row) / metric(stock)} at replication {@code r},
   *     rounds without both samples (or a stock value of 0) left out; empty when none is left
   */
  public OptionalDouble ratioToStock(String setting, int r, ToDoubleFunction<ProbeSample> metric) {
    List<Double> ratios = new ArrayList<>();
    for (ProbeSample s : samples) {
      if (!s.setting().equals(setting) || s.replication() != r) {
        continue;
      }
      for (ProbeSample base : samples) {
        if (base.setting().equals(LowpowerSetting.STOCK.label()) && base.replication() == r
            && base.round() == s.round() && metric.applyAsDouble(base) > 0) {
          ratios.add(metric.applyAsDouble(s) / metric.applyAsDouble(base));
        }
      }
    }
    return ratios.stream().mapToDouble(Double::doubleValue).average();
  }

  /** @return mean of {@code metric} over the row's rounds at replication {@code r} */
  public OptionalDouble mean(String setting, int r, ToDoubleFunction<ProbeSample> metric) {
    return samples.stream().filter(s -> s.setting().equals(setting) && s.replication() == r)
        .mapToDouble(metric).average();
  }

  /** @return the markdown table rows, one per replication and setting */
  public String table() {
    StringBuilder md = new StringBuilder();
    md.append("| r | row | write MB/s | write × stock | read MB/s | read × stock"
        + " | write CPU s/GiB (client + DataNodes) | CPU × stock | stored / written |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (int r : replications) {
      for (LowpowerSetting setting : settings) {
        String label = setting.label();
        md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %s | %s |%n",
            r, label, num(mean(label, r, ProbeSample::writeMBps), "%.1f"),
            num(ratioToStock(label, r, ProbeSample::writeMBps), "%.2f"),
            num(mean(label, r, ProbeSample::readMBps), "%.1f"),
            num(ratioToStock(label, r, ProbeSample::readMBps), "%.2f"),
            num(mean(label, r, ProbeSample::writeCpuSecondsPerGiB), "%.1f"),
            num(ratioToStock(label, r, ProbeSample::writeCpuSecondsPerGiB), "%.2f"),
            num(mean(label, r, s -> s.storedBytes() / (double) s.logicalBytes()), "%.2f")));
      }
    }
    return md.toString();
  }

  /** Writes the chart: write throughput × stock per replication (groups) and row (bars). */
  public void chart(Path svg) throws IOException {
    List<String> groups = new ArrayList<>();
    for (int r : replications) {
      groups.add("write r=" + r);
    }
    for (int r : replications) {
      groups.add("read r=" + r);
    }
    double[][] values = new double[settings.size()][groups.size()];
    for (int s = 0; s < settings.size(); s++) {
      for (int g = 0; g < replications.size(); g++) {
        int r = replications.get(g);
        String label = settings.get(s).label();
        values[s][g] = ratioToStock(label, r, ProbeSample::writeMBps).orElse(0);
        values[s][g + replications.size()] =
            ratioToStock(label, r, ProbeSample::readMBps).orElse(0);
      }
    }
    BarChartSvg.write(svg, "Low-power remedies on emulated weak nodes (throughput × stock)",
        "throughput / stock, same round", groups,
        settings.stream().map(LowpowerSetting::label).toList(), values);
  }

  private static String num(OptionalDouble value, String format) {
    return value.isPresent() ? String.format(Locale.ROOT, format, value.getAsDouble()) : "n/a";
  }
}
