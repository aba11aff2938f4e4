package org.locus.lowpower.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Measures Hadoop compression codecs on one in-memory sample: compressed size, and compress and
 * decompress throughput per CPU second of the measuring thread (CPU time, not wall time, so a
 * busy machine slows the bench without skewing the comparison). Every round trip is checked
 * byte for byte; a codec that cannot run here (no native library) is reported with its reason.
 */
public final class CodecBench {
  /**
   * Hadoop 3.5.0's built-in codecs, the ones a node may have without any extra jar. Whether
   * each runs without {@code libhadoop} is what the bench finds out.
   */
  public static final List<String> BUILT_IN_CODECS = List.of(
      "org.apache.hadoop.io.compress.DefaultCodec",
      "org.apache.hadoop.io.compress.GzipCodec",
      "org.apache.hadoop.io.compress.BZip2Codec",
      "org.apache.hadoop.io.compress.Lz4Codec",
      "org.apache.hadoop.io.compress.SnappyCodec",
      "org.apache.hadoop.io.compress.ZStandardCodec");

  private final Configuration conf;
  private final ClassLoader loader;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

  /**
   * @param conf configuration handed to each codec
   * @param loader where codec classes are loaded from (an opt-in bundle may add codecs)
   */
  public CodecBench(Configuration conf, ClassLoader loader) {
    this.conf = conf;
    this.loader = loader;
  }

  /** Measures every codec in {@code codecClasses} on {@code sample}, {@code rounds} times. */
  public List<CodecResult> measure(List<String> codecClasses, byte[] sample, int rounds) {
    List<CodecResult> results = new ArrayList<>();
    for (String codecClass : codecClasses) {
      results.add(measure(codecClass, sample, rounds));
    }
    return results;
  }

  /** Measures one codec; never throws for a codec that cannot run, reports it instead. */
  public CodecResult measure(String codecClass, byte[] sample, int rounds) {
    String name = codecClass.substring(codecClass.lastIndexOf('.') + 1)
        .replaceFirst("Codec$", "");
    CompressionCodec codec;
    try {
      Class<?> type = Class.forName(codecClass, true, loader);
      codec = (CompressionCodec) ReflectionUtils.newInstance(type, conf);
    } catch (ClassNotFoundException | LinkageError e) {
      return CodecResult.unavailable(name, codecClass, "class not on the classpath");
    } catch (RuntimeException e) {
      return CodecResult.unavailable(name, codecClass, firstLine(e));
    }
    try {
      byte[] compressed = compress(codec, sample);
      long start = cpuNow();
      for (int i = 0; i < rounds; i++) {
        compress(codec, sample);
      }
      long compressNanos = cpuNow() - start;
      byte[] restored = decompress(codec, compressed, sample.length);
      if (!Arrays.equals(sample, restored)) {
        return CodecResult.unavailable(name, codecClass,
            "round trip changed the data (" + restored.length + " of " + sample.length
                + " bytes back)");
      }
      start = cpuNow();
      for (int i = 0; i < rounds; i++) {
        decompress(codec, compressed, sample.length);
      }
      long decompressNanos = cpuNow() - start;
      return new CodecResult(name, codecClass, sample.length, compressed.length, compressNanos,
          decompressNanos, rounds, null);
    } catch (IOException | RuntimeException | LinkageError e) {
      return CodecResult.unavailable(name, codecClass, firstLine(e));
    }
  }

  /**
   * The codec to use for map output and job output on weak cores. On a CPU-bound node
   * compression pays by the disk and network I/O it removes, each byte of which costs CPU
   * (seed 003 §3.4.2), so the best codec is the one that removes the most bytes per CPU second
   * spent compressing and decompressing: {@link CodecResult#savedMBPerCpuSecond()}. Codecs
   * that do not shrink the data are never recommended.
   */
  public static Optional<CodecResult> recommend(List<CodecResult> results) {
    return results.stream()
        .filter(CodecResult::available)
        .filter(r -> r.ratio() < 1)
        .max(Comparator.comparingDouble(CodecResult::savedMBPerCpuSecond));
  }

  private long cpuNow() {
    return threads.getCurrentThreadCpuTime();
  }

  private static byte[] compress(CompressionCodec codec, byte[] data) throws IOException {
    ByteArrayOutputStream sink = new ByteArrayOutputStream(data.length / 2 + 64);
    try (CompressionOutputStream out = codec.createOutputStream(sink)) {
      out.write(data);
      out.finish();
    }
    return sink.toByteArray();
  }

  private static byte[] decompress(CompressionCodec codec, byte[] data, int expected)
      throws IOException {
    ByteArrayOutputStream sink = new ByteArrayOutputStream(expected);
    try (CompressionInputStream in = codec.createInputStream(new ByteArrayInputStream(data))) {
      copy(in, sink);
    }
    return sink.toByteArray();
  }

  private static void copy(InputStream in, OutputStream out) throws IOException {
    byte[] buffer = new byte[64 * 1024];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      out.write(buffer, 0, n);
    }
  }

  private static String firstLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName()
        : e.getClass().getSimpleName() + ": " + e.getMessage();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
