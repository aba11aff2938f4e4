package org.locus.bench.checksum;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What {@code locus bench checksum} measures, parsed from the command line's option values.
 * Every refusal names the option, the value and the accepted range.
 *
 * @param bytesPerChecksum the {@code dfs.bytes-per-checksum} sweep, ascending; always holds
 *     {@link #STOCK_BYTES_PER_CHECKSUM}, the baseline every configuration is compared with
 * @param writeSizes bytes per {@code write} call of the client, ascending
 * @param bufferBytes size of the {@code BufferedOutputStream} variant; 0 for none. Only write
 *     sizes below it get a buffered variant (a larger write passes straight through)
 * @param replications replication factors, ascending; the cluster gets as many DataNodes as
 *     the largest
 * @param mib size of each file written and read back
 * @param rounds times every configuration is measured, interleaved with the others
 * @param out the report directory
 */
public record ChecksumBenchRequest(List<Integer> bytesPerChecksum, List<Integer> writeSizes,
    int bufferBytes, List<Integer> replications, int mib, int rounds, File out) {

  /** HDFS's default {@code dfs.bytes-per-checksum}: the stock configuration. */
  public static final int STOCK_BYTES_PER_CHECKSUM = 512;
  /**
   * Block size of every file: HDFS's default. A checksum chunk must divide it, so with a
   * power-of-two block the valid chunk sizes are the powers of two.
   */
  public static final long BLOCK_BYTES = 128L << 20;
  static final int MIN_BYTES_PER_CHECKSUM = 64;
  static final int MAX_BYTES_PER_CHECKSUM = 1 << 20;
  static final int MAX_WRITE_BYTES = 1 << 20;
  static final int MAX_BUFFER_BYTES = 16 << 20;
  static final int MAX_REPLICATION = 5;

  public static final String DEFAULT_BYTES_PER_CHECKSUM = "512,1024,2048,4096,8192,16384";
  /**
   * 8 bytes per call is the seed's reducer (24-byte records written 8 bytes at a time) and
   * about what Hadoop's text output issues: key, separator, value and newline are four calls.
   */
  public static final String DEFAULT_WRITE_SIZES = "8,100,4096,65536";
  public static final int DEFAULT_BUFFER_BYTES = 64 << 10;
  public static final String DEFAULT_REPLICATIONS = "1,3";
  /**
   * The CPU clock ticks in 10 ms steps and a stock write costs a few ms per MiB here, so a
   * file of 64 MiB keeps one tick under about 5 % of a write's CPU.
   */
  public static final int DEFAULT_MIB = 64;
  public static final int DEFAULT_ROUNDS = 3;

  public ChecksumBenchRequest {
    bytesPerChecksum = List.copyOf(bytesPerChecksum);
    writeSizes = List.copyOf(writeSizes);
    replications = List.copyOf(replications);
    Objects.requireNonNull(out, "out");
  }

  /**
   * Builds a request from option values by long option name ({@code bytes-per-checksum},
   * {@code write-sizes}, {@code buffer}, {@code replication}, {@code mib}, {@code rounds},
   * {@code out}); a missing option takes its default.
   *
   * @throws IllegalArgumentException naming the option whose value is refused
   */
  public static ChecksumBenchRequest parse(Map<String, String> options) {
    TreeSet<Integer> sweep = new TreeSet<>(list(options, "bytes-per-checksum",
        DEFAULT_BYTES_PER_CHECKSUM, MIN_BYTES_PER_CHECKSUM, MAX_BYTES_PER_CHECKSUM));
    for (int bytes : sweep) {
      if (Integer.bitCount(bytes) != 1) {
        throw new IllegalArgumentException("--bytes-per-checksum " + bytes + " is not a power"
            + " of two: a checksum chunk must divide the block size (" + (BLOCK_BYTES >> 20)
            + " MiB), e.g. 512, 1024, 4096");
      }
    }
    sweep.add(STOCK_BYTES_PER_CHECKSUM);
    return new ChecksumBenchRequest(new ArrayList<>(sweep),
        new ArrayList<>(new TreeSet<>(list(options, "write-sizes", DEFAULT_WRITE_SIZES, 1,
            MAX_WRITE_BYTES))),
        number(options, "buffer", DEFAULT_BUFFER_BYTES, 0, MAX_BUFFER_BYTES),
        new ArrayList<>(new TreeSet<>(list(options, "replication", DEFAULT_REPLICATIONS, 1,
            MAX_REPLICATION))),
        number(options, "mib", DEFAULT_MIB, 1, 1024),
        number(options, "rounds", DEFAULT_ROUNDS, 1, 50),
        new File(options.getOrDefault("out", "bench-out/checksum")).getAbsoluteFile());
  }

  /** @return DataNodes the cluster needs: one per replica of the largest factor */
  public int nodes() {
    return replications.get(replications.size() - 1);
  }

  /** @return bytes in each file written and read back */
  public long fileBytes() {
    return (long) mib << 20;
  }

  /**
   * @return every configuration measured: each replication, each write size unbuffered (and
   *     buffered when smaller than the buffer), each checksum size; in report order
   */
  public List<ChecksumSetting> settings() {
    List<ChecksumSetting> settings = new ArrayList<>();
    for (int replication : replications) {
      for (int write : writeSizes) {
        for (int buffer : bufferBytes > write ? List.of(0, bufferBytes) : List.of(0)) {
          for (int bytes : bytesPerChecksum) {
            settings.add(new ChecksumSetting(replication, write, buffer, bytes));
          }
        }
      }
    }
    return settings;
  }

  private static List<Integer> list(Map<String, String> options, String option,
      String defaultValue, int min, int max) {
    String text = options.getOrDefault(option, defaultValue);
    List<Integer> values = new ArrayList<>();
    for (String item : text.split(",", -1)) {
      values.add(parseInt(option, item, min, max));
    }
    return values;
  }

  private static int number(Map<String, String> options, String option, int defaultValue,
      int min, int max) {
    String text = options.get(option);
    return text == null ? defaultValue : parseInt(option, text, min, max);
  }

  private static int parseInt(String option, String text, int min, int max) {
    int value;
    try {
      value = Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + option + " needs whole numbers, got '" + text
          + "'");
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException("--" + option + " must be " + min + ".." + max
          + ", got " + value);
    }
    return value;
  }
}
