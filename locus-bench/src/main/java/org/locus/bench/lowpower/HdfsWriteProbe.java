package org.locus.bench.lowpower;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;

import com.sun.management.OperatingSystemMXBean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.locus.bench.run.NetnsBenchClusters;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.netns.ClusterDirectory;

/**
 * One measurement of the low-power bench, run as its own JVM inside a netns node (so the
 * node's CPU limit binds the client as it binds the node's DataNode, as on the seed's Atom
 * nodes): writes {@code BYTES} of Zipf text to HDFS at replication {@code R} with a checksum
 * chunk of {@code C} bytes, through {@code CODEC} when one is named (the compressed reducer
 * output of seed 003 §3.4.2), reads it back and checks every byte by CRC. Prints one line:
 *
 * <pre>probe write_ns=.. read_ns=.. client_cpu_write_ns=.. client_cpu_read_ns=..
 *       datanode_cpu_write_ns=.. datanode_cpu_read_ns=.. stored_bytes=.. logical_bytes=..</pre>
 *
 * DataNode CPU is user + system time of the given DataNode processes from
 * {@code /proc/PID/stat} (the node namespaces share the host's PID namespace), in clock ticks
 * (10 ms). Before the measured file the probe writes and reads a warm-up file with the same
 * setting, so class loading and JIT compilation of the write path are not measured.
 *
 * <p>Arguments: {@code CLUSTER_DIR PATH BYTES R C CODEC|none DATANODE_PID,...}. Exit 1 with a
 * message when the data does not read back as written.
 */
public final class HdfsWriteProbe {
  static final String NO_CODEC = "none";
  private static final int SAMPLE_BYTES = 4 << 20;
  private static final int WRITE_BYTES = 64 << 10;
  private static final long WARM_UP_BYTES = 4L << 20;
  private static final OperatingSystemMXBean OS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final long NANOS_PER_TICK = 10_000_000L;

  private HdfsWriteProbe() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 7) {
      System.err.println("usage: HdfsWriteProbe CLUSTER_DIR PATH BYTES REPLICATION"
          + " BYTES_PER_CHECKSUM CODEC|none DATANODE_PID,...");
      System.exit(2);
    }
    Configuration conf = NetnsBenchClusters.clientConfiguration(
        new ClusterDirectory(new File(args[0])));
    Path path = new Path(args[1]);
    long bytes = Long.parseLong(args[2]);
    short replication = Short.parseShort(args[3]);
    conf.setInt(HdfsClientConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, Integer.parseInt(args[4]));
    CompressionCodec codec = args[5].equals(NO_CODEC) ? null
        : (CompressionCodec) ReflectionUtils.newInstance(conf.getClassByName(args[5]), conf);
    List<Long> datanodes = new ArrayList<>();
    for (String pid : args[6].split(",")) {
      datanodes.add(Long.parseLong(pid));
    }
    byte[] sample = sample();
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      Path warmUp = path.suffix(".warm-up");
      writeAndRead(fs, warmUp, WARM_UP_BYTES, replication, codec, sample, datanodes);
      fs.delete(warmUp, false);
      Measured m = writeAndRead(fs, path, bytes, replication, codec, sample, datanodes);
      fs.delete(path, false);
      System.out.println(String.format(Locale.ROOT, "probe write_ns=%d read_ns=%d"
          + " client_cpu_write_ns=%d client_cpu_read_ns=%d datanode_cpu_write_ns=%d"
          + " datanode_cpu_read_ns=%d stored_bytes=%d logical_bytes=%d", m.writeNanos,
          m.readNanos, m.clientCpuWrite, m.clientCpuRead, m.datanodeCpuWrite, m.datanodeCpuRead,
          m.storedBytes, bytes));
    } catch (DataMismatch e) {
      System.err.println(e.getMessage());
      System.exit(1);
    }
  }

  private static final class Measured {
    long writeNanos;
    long readNanos;
    long clientCpuWrite;
    long clientCpuRead;
    long datanodeCpuWrite;
    long datanodeCpuRead;
    long storedBytes;
  }

  private static final class DataMismatch extends IOException {
    DataMismatch(String message) {
      super(message);
    }
  }

  private static Measured writeAndRead(FileSystem fs, Path path, long bytes, short replication,
      CompressionCodec codec, byte[] sample, List<Long> datanodes) throws IOException {
    Measured m = new Measured();
    CRC32 written = new CRC32();
    long cpu = OS.getProcessCpuTime();
    long dn = datanodeCpuNanos(datanodes);
    long start = System.nanoTime();
    try (FSDataOutputStream raw = fs.create(path, true, WRITE_BYTES, replication,
        fs.getDefaultBlockSize(path))) {
      OutputStream out = codec == null ? raw : codec.createOutputStream(raw);
      long left = bytes;
      int offset = 0;
      while (left > 0) {
        int n = (int) Math.min(Math.min(left, WRITE_BYTES), sample.length - offset);
        out.write(sample, offset, n);
        written.update(sample, offset, n);
        left -= n;
        offset = (offset + n) % sample.length;
      }
      out.close();
    }
    m.writeNanos = System.nanoTime() - start;
    m.clientCpuWrite = OS.getProcessCpuTime() - cpu;
    m.datanodeCpuWrite = datanodeCpuNanos(datanodes) - dn;
    m.storedBytes = fs.getFileStatus(path).getLen();

    CRC32 read = new CRC32();
    long total = 0;
    cpu = OS.getProcessCpuTime();
    dn = datanodeCpuNanos(datanodes);
    start = System.nanoTime();
    try (InputStream raw = fs.open(path, WRITE_BYTES);
        InputStream in = codec == null ? raw : codec.createInputStream(raw)) {
      byte[] buffer = new byte[WRITE_BYTES];
      for (int n; (n = in.read(buffer)) > 0; ) {
        read.update(buffer, 0, n);
        total += n;
      }
    }
    m.readNanos = System.nanoTime() - start;
    m.clientCpuRead = OS.getProcessCpuTime() - cpu;
    m.datanodeCpuRead = datanodeCpuNanos(datanodes) - dn;
    if (total != bytes || read.getValue() != written.getValue()) {
      throw new DataMismatch(path + " read back " + total + " bytes with CRC "
          + Long.toHexString(read.getValue()) + ", written " + bytes + " bytes with CRC "
          + Long.toHexString(written.getValue()));
    }
    return m;
  }

  /** @return user + system time of the processes, 0 for one that is gone */
  static long datanodeCpuNanos(List<Long> pids) throws IOException {
    long ticks = 0;
    for (long pid : pids) {
      File stat = new File("/proc/" + pid + "/stat");
      if (stat.isFile()) {
        ticks += cpuTicks(Files.readString(stat.toPath()));
      }
    }
    return ticks * NANOS_PER_TICK;
  }

  /** @return utime + stime (fields 14 and 15) of a {@code /proc/PID/stat} line */
  static long cpuTicks(String stat) {
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
  }

  private static byte[] sample() throws IOException {
    ByteArrayOutputStream text = new ByteArrayOutputStream(SAMPLE_BYTES + 256);
    new ZipfTextGenerator(50_000, 1.0, 3).lines(0, SAMPLE_BYTES,
        l -> text.write((l + "\n").getBytes(StandardCharsets.UTF_8)));
    return Arrays.copyOf(text.toByteArray(), SAMPLE_BYTES);
  }
}
