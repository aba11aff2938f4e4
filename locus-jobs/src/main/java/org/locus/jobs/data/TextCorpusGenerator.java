package org.locus.jobs.data;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code text}: a Zipf-distributed word corpus ({@link ZipfTextGenerator}, 20,000 distinct
 * words, exponent 1.0), the stand-in for PUMA's Wikipedia text.
 */
final class TextCorpusGenerator implements DataGenerator {
  static final int VOCABULARY = 20_000;

  @Override
  public String kind() {
    return "text";
  }

  @Override
  public String summary() {
    return "lines of 6-14 Zipf-distributed words (wordcount, grep, inverted-index, ...)";
  }

  @Override
  public long write(FileSystem fs, Path dir, long bytes, int files, long seed)
      throws IOException {
    DataGenerators.checkSize(bytes, files);
    ZipfTextGenerator generator = new ZipfTextGenerator(VOCABULARY, 1.0, seed);
    long total = 0;
    for (int f = 0; f < files; f++) {
      long share = bytes * (f + 1) / files - bytes * f / files;
      try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(
          fs.create(DataGenerators.partFile(dir, f), false), StandardCharsets.UTF_8))) {
        total += generator.lines(f, share, line -> out.write(line + "\n"));
      }
    }
    return total;
  }
}
