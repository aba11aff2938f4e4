package org.locus.bench.lowpower;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One probe's measurement of one row at one replication in one round ({@link HdfsWriteProbe}'s
 * output line, parsed).
 */
public record ProbeSample(String setting, int replication, int round, long writeNanos,
    long readNanos, long clientCpuWriteNanos, long clientCpuReadNanos,
    long datanodeCpuWriteNanos, long datanodeCpuReadNanos, long storedBytes,
    long logicalBytes) {

  /** Tab-separated header of {@link #tsv()}. */
  public static final String TSV_HEADER = "setting\treplication\tround\twrite_ns\tread_ns"
      + "\tclient_cpu_write_ns\tclient_cpu_read_ns\tdatanode_cpu_write_ns"
      + "\tdatanode_cpu_read_ns\tstored_bytes\tlogical_bytes";

  /**
   * @return the sample of the probe's {@code probe ...} line in {@code output}, if it printed
   *     one
   */
  public static Optional<ProbeSample> parse(String setting, int replication, int round,
      String output) {
    for (String line : output.split("\n")) {
      if (!line.startsWith("probe ")) {
        continue;
      }
      Map<String, Long> v = new HashMap<>();
      for (String field : line.substring(6).trim().split(" ")) {
        String[] kv = field.split("=", 2);
        v.put(kv[0], Long.parseLong(kv[1]));
      }
      return Optional.of(new ProbeSample(setting, replication, round, v.get("write_ns"),
          v.get("read_ns"), v.get("client_cpu_write_ns"), v.get("client_cpu_read_ns"),
          v.get("datanode_cpu_write_ns"), v.get("datanode_cpu_read_ns"), v.get("stored_bytes"),
          v.get("logical_bytes")));
    }
    return Optional.empty();
  }

  /** @return logical megabytes (10^6) written per second of wall time */
  public double writeMBps() {
    return logicalBytes / 1e6 / (writeNanos / 1e9);
  }

  /** @return logical megabytes read back per second of wall time */
  public double readMBps() {
    return logicalBytes / 1e6 / (readNanos / 1e9);
  }

  /** @return client and DataNode CPU seconds of the write per logical GiB */
  public double writeCpuSecondsPerGiB() {
    return (clientCpuWriteNanos + datanodeCpuWriteNanos) / 1e9 / (logicalBytes / (double) (1L
        << 30));
  }

  public String tsv() {
    return String.join("\t", setting, Integer.toString(replication), Integer.toString(round),
        Long.toString(writeNanos), Long.toString(readNanos), Long.toString(clientCpuWriteNanos),
        Long.toString(clientCpuReadNanos), Long.toString(datanodeCpuWriteNanos),
        Long.toString(datanodeCpuReadNanos), Long.toString(storedBytes),
        Long.toString(logicalBytes));
  }
}
