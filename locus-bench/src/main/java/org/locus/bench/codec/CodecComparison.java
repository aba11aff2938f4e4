package org.locus.bench.codec;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.locus.bench.report.TextTable;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.lowpower.codec.CodecBench;
import org.locus.lowpower.codec.CodecResult;

/**
 * The codec bench ({@code locus bench codecs}): Hadoop's built-in codecs, and LZO when its opt-in
 * bundle is given, on one sample (seed 003 §3.4.2), with the recommendation the numbers give.
 */
public final class CodecComparison {
  /** The pure-Java LZO codecs of the opt-in bundle (locus-lzo, GPL-3.0). */
  public static final List<String> LZO_CODECS = List.of(
      "org.anarres.lzo.hadoop.codec.LzoCodec", "org.anarres.lzo.hadoop.codec.LzopCodec");

  private CodecComparison() {
  }

  /**
   * Measures the built-in codecs, and the LZO codecs when {@code optInJars} are given, on one
   * sample, and prints the table and the recommendation on {@code out}.
   *
   * @param input the sample file (its first {@code mib} MiB), or null for generated Zipf text
   * @param optInJars the opt-in bundle's jars, or null
   */
  public static void run(File input, int mib, int rounds, List<File> optInJars,
      PrintStream out) throws Exception {
    byte[] sample = sample(input, mib);
    List<String> codecs = new ArrayList<>(CodecBench.BUILT_IN_CODECS);
    ClassLoader loader = CodecComparison.class.getClassLoader();
    URLClassLoader optIn = null;
    if (optInJars != null) {
      optIn = optInLoader(optInJars, loader);
      loader = optIn;
      codecs.addAll(LZO_CODECS);
    }
    try {
      Configuration conf = new Configuration();
      conf.setClassLoader(loader);
      List<CodecResult> results = new CodecBench(conf, loader).measure(codecs, sample, rounds);
      print(results, sample.length, rounds, input == null ? null : input.getPath(), out);
    } finally {
      if (optIn != null) {
        optIn.close();
      }
    }
  }

  private static void print(List<CodecResult> results, int sampleBytes, int rounds,
      String input, PrintStream out) {
    out.printf("Sample: %s, %s; %d round(s) per codec. Throughput is uncompressed MB "
        + "(10^6 B) per CPU second of the measuring thread.%n",
        input == null ? "generated Zipf text" : input, TextTable.bytes(sampleBytes), rounds);
    TextTable table = new TextTable("codec", "ratio", "compress MB/s", "decompress MB/s",
        "CPU s/GB round trip", "MB saved/CPU s", "note");
    for (CodecResult r : results) {
      if (r.available()) {
        table.row(r.name(), String.format("%.3f", r.ratio()),
            String.format("%.1f", r.compressMBps()), String.format("%.1f", r.decompressMBps()),
            String.format("%.2f", r.roundTripCpuSecondsPerGB()),
            String.format("%.1f", r.savedMBPerCpuSecond()), "");
      } else {
        table.row(r.name(), "-", "-", "-", "-", "-", "unavailable: " + r.unavailable());
      }
    }
    table.print(out, "  ");
    Optional<CodecResult> best = CodecBench.recommend(results);
    out.println("Rule: on CPU-bound nodes compression pays by the I/O bytes it removes"
        + " (seed 003 §3.4.2): recommend the most MB saved per CPU second of compress + "
        + "decompress.");
    out.println(best.map(r -> "Recommended: " + r.name() + " (" + r.codecClass() + ")")
        .orElse("Recommended: none (no available codec shrinks the sample)"));
  }

  private static byte[] sample(File input, int mib) throws IOException {
    int size = mib << 20;
    if (input != null) {
      byte[] all = Files.readAllBytes(input.toPath());
      return all.length <= size ? all : Arrays.copyOf(all, size);
    }
    ByteArrayOutputStream text = new ByteArrayOutputStream(size + 256);
    new ZipfTextGenerator(50_000, 1.0, 3).lines(0, size,
        l -> text.write((l + "\n").getBytes(StandardCharsets.UTF_8)));
    return Arrays.copyOf(text.toByteArray(), size);
  }

  private static URLClassLoader optInLoader(List<File> jars, ClassLoader parent)
      throws MalformedURLException {
    List<URL> urls = new ArrayList<>();
    for (File jar : jars) {
      urls.add(jar.toURI().toURL());
    }
    return new URLClassLoader(urls.toArray(new URL[0]), parent);
  }
}
