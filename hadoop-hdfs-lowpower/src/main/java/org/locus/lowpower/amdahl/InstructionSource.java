package org.locus.lowpower.amdahl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the instruction count of a measurement comes from: hardware counters when the machine
 * has them ({@code perf stat -e instructions}), otherwise an estimate from CPU time at the
 * nominal clock with an assumed IPC. {@link #method()} says which, and is printed with every
 * table: an estimate is never presented as a measurement.
 */
public final class InstructionSource {
  /** IPC assumed by the estimate: 1 instruction per cycle. Seed 003 Table 4 saw 0.22–0.69. */
  public static final double ASSUMED_IPC = 1.0;

  private final boolean counters;
  private final double nominalHz;
  private final String reason;

  private InstructionSource(boolean counters, double nominalHz, String reason) {
    this.counters = counters;
    this.nominalHz = nominalHz;
    this.reason = reason;
  }

  /** Probes this machine: {@code perf} present and counting instructions, and the CPU clock. */
  public static InstructionSource probe() {
    double hz = nominalHz(Path.of("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"),
        Path.of("/proc/cpuinfo"));
    String perf = perfVerdict();
    return new InstructionSource(perf == null, hz, perf);
  }

  /** An estimating source with a given clock, for tests and machines without perf. */
  public static InstructionSource estimate(double nominalHz, String reason) {
    return new InstructionSource(false, nominalHz, reason);
  }

  /** @return whether instructions are counted by hardware */
  public boolean counted() {
    return counters;
  }

  /** @return instructions of a task: its counted instructions, or the estimate */
  public double instructions(TaskIo io) {
    if (io.instructions() >= 0) {
      return io.instructions();
    }
    return io.cpuSeconds() * nominalHz * ASSUMED_IPC;
  }

  /** @return one line saying how instructions were obtained */
  public String method() {
    if (counters) {
      return "instructions: measured by hardware counters (perf stat -e instructions)";
    }
    return String.format("instructions: ESTIMATED as CPU seconds x nominal clock %.2f GHz x "
        + "assumed IPC %.1f (no hardware counters: %s); not a measurement",
        nominalHz / 1e9, ASSUMED_IPC, reason);
  }

  static double nominalHz(Path cpufreqMaxKhz, Path cpuinfo) {
    try {
      if (Files.isReadable(cpufreqMaxKhz)) {
        return Double.parseDouble(Files.readString(cpufreqMaxKhz).trim()) * 1e3;
      }
      Matcher mhz = Pattern.compile("(?m)^cpu MHz\\s*:\\s*([0-9.]+)")
          .matcher(Files.readString(cpuinfo));
      if (mhz.find()) {
        return Double.parseDouble(mhz.group(1)) * 1e6;
      }
    } catch (IOException | NumberFormatException e) {
      throw new IllegalStateException("cannot read the CPU clock from " + cpufreqMaxKhz
          + " or " + cpuinfo + ": " + e.getMessage(), e);
    }
    throw new IllegalStateException("no 'cpu MHz' line in " + cpuinfo
        + " and no " + cpufreqMaxKhz);
  }

  /** @return null if {@code perf} counts instructions here, else why not */
  private static String perfVerdict() {
    try {
      Process p = new ProcessBuilder(List.of("perf", "stat", "-x", ",", "-e", "instructions",
          "true")).redirectErrorStream(true).start();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "perf stat timed out";
      }
      String out = new String(p.getInputStream().readAllBytes());
      return perfOutputVerdict(p.exitValue(), out);
    } catch (IOException e) {
      return "perf is not installed";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while probing perf";
    }
  }

  /** Reads {@code perf stat -x ,} output: a number in the first field means counted. */
  static String perfOutputVerdict(int exit, String out) {
    if (out.contains("<not supported>")) {
      return "perf stat -e instructions: not supported";
    }
    if (out.contains("<not counted>")) {
      return "perf stat -e instructions: not counted";
    }
    if (exit == 0 && out.lines().anyMatch(l -> l.matches("\\d+,.*instructions.*"))) {
      return null;
    }
    return "perf stat failed (exit " + exit + ")";
  }
}
