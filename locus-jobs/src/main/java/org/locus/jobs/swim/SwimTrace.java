package org.locus.jobs.swim;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a SWIM trace: tab-separated rows {@code name, submit s, gap s, map input bytes,
 * shuffle bytes, reduce output bytes}, no header (the format of
 * {@code FB-2009_samples_24_times_1hr_0.tsv}). Blank lines are skipped; any other malformed
 * row is an error naming the file and line.
 */
public final class SwimTrace {
  private SwimTrace() {
  }

  /** Parses a whole trace file. */
  public static List<SwimTraceJob> read(Path file) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(in, file.toString());
    }
  }

  /**
   * Parses trace rows from {@code in}.
   *
   * @param source the file name, for messages
   * @throws IOException naming {@code source:line} and the expected columns on a bad row
   */
  public static List<SwimTraceJob> parse(BufferedReader in, String source) throws IOException {
    List<SwimTraceJob> jobs = new ArrayList<>();
    String line;
    int number = 0;
    while ((line = in.readLine()) != null) {
      number++;
      if (line.isBlank()) {
        continue;
      }
      String[] fields = line.strip().split("\t");
      try {
        if (fields.length != 6) {
          throw new IllegalArgumentException(fields.length + " columns");
        }
        SwimTraceJob job = new SwimTraceJob(fields[0], Long.parseLong(fields[1]),
            Long.parseLong(fields[2]), Long.parseLong(fields[3]), Long.parseLong(fields[4]),
            Long.parseLong(fields[5]));
        if (job.submitSeconds() < 0 || job.gapSeconds() < 0 || job.inputBytes() < 0
            || job.shuffleBytes() < 0 || job.outputBytes() < 0) {
          throw new IllegalArgumentException("negative time or byte count");
        }
        jobs.add(job);
      } catch (IllegalArgumentException e) {
        throw new IOException(source + ":" + number + ": not a SWIM trace row (expected 6"
            + " tab-separated columns: name, submit s, gap s, input, shuffle, output bytes;"
            + " got " + e.getMessage() + "): '" + line + "'");
      }
    }
    return jobs;
  }

  /** @return the jobs submitted in the first {@code hours} hours */
  public static List<SwimTraceJob> firstHours(List<SwimTraceJob> jobs, double hours) {
    return jobs.stream().filter(j -> j.submitSeconds() < hours * 3600).toList();
  }
}
