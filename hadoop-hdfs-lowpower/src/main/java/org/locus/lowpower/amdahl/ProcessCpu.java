package org.locus.lowpower.amdahl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time (user + system) of a process from {@code /proc/PID/stat}, fields 14 and 15 in
 * clock ticks of {@link #TICKS_PER_SECOND} (Linux's USER_HZ, 100 on every architecture Hadoop
 * runs on).
 */
public final class ProcessCpu {
  static final double TICKS_PER_SECOND = 100.0;

  private ProcessCpu() {
  }

  /** @return CPU seconds process {@code pid} has used so far */
  public static double seconds(long pid) throws IOException {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    String text;
    try {
      text = Files.readString(stat);
    } catch (IOException e) {
      throw new IOException("cannot read " + stat + " (is process " + pid + " running?)", e);
    }
    return parseStat(text);
  }

  /** Parses a {@code /proc/PID/stat} line: the command may hold spaces, so split after ')'. */
  static double parseStat(String text) {
    String[] rest = text.substring(text.lastIndexOf(')') + 2).trim().split(" ");
    // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
    long ticks = Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
    return ticks / TICKS_PER_SECOND;
  }
}
