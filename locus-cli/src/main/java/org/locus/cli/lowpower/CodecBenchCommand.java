package org.locus.cli.lowpower;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.locus.cli.Console;
import org.locus.cli.OptionsCommand;
import org.locus.cli.TextTable;
import org.locus.cli.UsageException;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.lowpower.codec.CodecBench;
import org.locus.lowpower.codec.CodecResult;

/**
 * {@code locus bench codecs}: Hadoop's built-in codecs, and LZO when its opt-in bundle is given,
 * on one sample (seed 003 §3.4.2), with the recommendation the numbers give.
 */
public final class CodecBenchCommand extends OptionsCommand {
  /** The pure-Java LZO codecs of the opt-in bundle (locus-lzo, GPL-3.0). */
  static final List<String> LZO_CODECS = List.of(
      "org.anarres.lzo.hadoop.codec.LzoCodec", "org.anarres.lzo.hadoop.codec.LzopCodec");

  public CodecBenchCommand() {
    super("locus bench codecs");
  }

  @Override
  public String name() {
    return "codecs";
  }

  @Override
  public String summary() {
    return "compression codecs (LZO opt-in, LZ4, Snappy, Deflate, ...): ratio and CPU throughput";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("opt-in").hasArg().argName("DIR")
            .desc("directory of opt-in jars to load codecs from, e.g. locus-lzo/target/opt-in "
                + "(adds the GPL LZO codecs)").build())
        .addOption(Option.builder().longOpt("input").hasArg().argName("FILE")
            .desc("sample file (first --mib MiB); default: generated Zipf text").build())
        .addOption(Option.builder().longOpt("mib").hasArg().argName("N")
            .desc("sample size in MiB, 1..512 (default 16)").build())
        .addOption(Option.builder().longOpt("rounds").hasArg().argName("N")
            .desc("compressions and decompressions per codec, 1..100 (default 3)").build());
  }

  @Override
  protected String usageArguments() {
    return "[--opt-in DIR] [--input FILE] [--mib N] [--rounds N]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int mib = intOption(line, "mib", 16, 1, 512);
    int rounds = intOption(line, "rounds", 3, 1, 100);
    byte[] sample = sample(line.getOptionValue("input"), mib);
    List<String> codecs = new ArrayList<>(CodecBench.BUILT_IN_CODECS);
    ClassLoader loader = CodecBenchCommand.class.getClassLoader();
    URLClassLoader optIn = null;
    if (line.hasOption("opt-in")) {
      optIn = optInLoader(new File(line.getOptionValue("opt-in")), loader);
      loader = optIn;
      codecs.addAll(LZO_CODECS);
    }
    try {
      Configuration conf = new Configuration();
      conf.setClassLoader(loader);
      List<CodecResult> results = new CodecBench(conf, loader).measure(codecs, sample, rounds);
      print(results, sample.length, rounds, line.getOptionValue("input"), console);
    } finally {
      if (optIn != null) {
        optIn.close();
      }
    }
    return 0;
  }

  private static void print(List<CodecResult> results, int sampleBytes, int rounds,
      String input, Console console) {
    console.out().printf("Sample: %s, %s; %d round(s) per codec. Throughput is uncompressed MB "
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
    table.print(console.out(), "  ");
    Optional<CodecResult> best = CodecBench.recommend(results);
    console.out().println("Rule: on CPU-bound nodes compression pays by the I/O bytes it removes"
        + " (seed 003 §3.4.2): recommend the most MB saved per CPU second of compress + "
        + "decompress.");
    console.out().println(best.map(r -> "Recommended: " + r.name() + " (" + r.codecClass() + ")")
        .orElse("Recommended: none (no available codec shrinks the sample)"));
  }

  private static byte[] sample(String input, int mib) throws IOException, UsageException {
    int size = mib << 20;
    if (input != null) {
      File file = new File(input);
      if (!file.isFile()) {
        throw new UsageException("--input " + input + " is not a readable file");
      }
      byte[] all = Files.readAllBytes(file.toPath());
      return all.length <= size ? all : Arrays.copyOf(all, size);
    }
    ByteArrayOutputStream text = new ByteArrayOutputStream(size + 256);
    new ZipfTextGenerator(50_000, 1.0, 3).lines(0, size,
        l -> text.write((l + "\n").getBytes(StandardCharsets.UTF_8)));
    return Arrays.copyOf(text.toByteArray(), size);
  }

  private static URLClassLoader optInLoader(File dir, ClassLoader parent)
      throws UsageException, MalformedURLException {
    File[] jars = dir.listFiles((d, name) -> name.endsWith(".jar"));
    if (jars == null || jars.length == 0) {
      throw new UsageException("--opt-in " + dir + " holds no jar; build it with "
          + "'mvn -pl locus-lzo package' (expected locus-lzo/target/opt-in)");
    }
    List<URL> urls = new ArrayList<>();
    for (File jar : jars) {
      urls.add(jar.toURI().toURL());
    }
    return new URLClassLoader(urls.toArray(new URL[0]), parent);
  }
}
