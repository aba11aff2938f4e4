package org.locus.jobs.data;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Generates a text corpus whose words follow a Zipf distribution, as natural-language word
 * frequencies do: the word of rank {@code k} appears with probability proportional to
 * {@code 1 / k^s}. Output is reproducible for a given seed.
 *
 * <p>Words are {@code w} followed by the rank in base 36 ({@code w1}, {@code w2}, ...,
 * {@code wa}, ...), lines hold 6–14 words.
 */
public final class ZipfTextGenerator {
  private final double[] cumulative;
  private final long seed;

  /**
   * @param vocabulary number of distinct words, at least 1
   * @param exponent Zipf exponent {@code s}, greater than 0 (1.0 is classic Zipf)
   * @param seed random seed; equal seeds give equal corpora
   */
  public ZipfTextGenerator(int vocabulary, double exponent, long seed) {
    if (vocabulary < 1) {
      throw new IllegalArgumentException("vocabulary must be at least 1, got " + vocabulary);
    }
    if (!(exponent > 0)) {
      throw new IllegalArgumentException("Zipf exponent must be > 0, got " + exponent);
    }
    cumulative = new double[vocabulary];
    double sum = 0;
    for (int rank = 1; rank <= vocabulary; rank++) {
      sum += 1.0 / Math.pow(rank, exponent);
      cumulative[rank - 1] = sum;
    }
    for (int i = 0; i < vocabulary; i++) {
      cumulative[i] /= sum;
    }
    this.seed = seed;
  }

  /** @return the word of a 1-based frequency rank */
  public static String wordOfRank(int rank) {
    return "w" + Integer.toString(rank, 36);
  }

  /**
   * Writes {@code files} files named {@code part-NNNNN} of about {@code bytesPerFile} bytes each
   * (whole lines; each file ends at the first line boundary at or past the size).
   *
   * @return total bytes written
   */
  public long write(FileSystem fs, Path dir, int files, long bytesPerFile) throws IOException {
    long total = 0;
    for (int f = 0; f < files; f++) {
      Path file = new Path(dir, String.format("part-%05d", f));
      try (BufferedWriter out = new BufferedWriter(
          new OutputStreamWriter(fs.create(file, false), StandardCharsets.UTF_8))) {
        total += lines(f, bytesPerFile, line -> out.write(line + "\n"));
      }
    }
    return total;
  }

  /** Receives one generated line, without its line feed. */
  @FunctionalInterface
  public interface LineSink {
    void accept(String line) throws IOException;
  }

  /**
   * Generates the lines of file number {@code fileIndex} of this corpus, the same lines
   * {@link #write} puts in that file, until at least {@code bytes} bytes (line feeds counted).
   *
   * @return bytes generated, line feeds included
   */
  public long lines(int fileIndex, long bytes, LineSink sink) throws IOException {
    SplittableRandom random = new SplittableRandom(seed * 1_000_003L + fileIndex);
    long written = 0;
    StringBuilder line = new StringBuilder();
    while (written < bytes) {
      line.setLength(0);
      int words = 6 + random.nextInt(9);
      for (int w = 0; w < words; w++) {
        if (w > 0) {
          line.append(' ');
        }
        line.append(wordOfRank(sampleRank(random)));
      }
      sink.accept(line.toString());
      written += line.length() + 1;
    }
    return written;
  }

  private int sampleRank(SplittableRandom random) {
    int index = Arrays.binarySearch(cumulative, random.nextDouble());
    int slot = index >= 0 ? index : -index - 1;
    return Math.min(slot, cumulative.length - 1) + 1;
  }
}
