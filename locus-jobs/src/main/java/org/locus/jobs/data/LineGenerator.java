package org.locus.jobs.data;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Base of the line-oriented generators: splits the byte budget over the files and writes
 * lines from {@link #line} until each file's share is reached. Each file has its own random
 * stream derived from the seed and the file number.
 */
abstract class LineGenerator implements DataGenerator {
  /** Appends line number {@code index} of file {@code file} (no line feed) to {@code out}. */
  protected abstract void line(SplittableRandom random, int file, int files, long index,
      long totalBytes, StringBuilder out);

  @Override
  public long write(FileSystem fs, Path dir, long bytes, int files, long seed)
      throws IOException {
    DataGenerators.checkSize(bytes, files);
    long total = 0;
    StringBuilder line = new StringBuilder();
    for (int f = 0; f < files; f++) {
      long share = bytes * (f + 1) / files - bytes * f / files;
      SplittableRandom random = new SplittableRandom(seed * 1_000_003L + f);
      long written = 0;
      try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(
          fs.create(DataGenerators.partFile(dir, f), false), StandardCharsets.UTF_8))) {
        for (long index = 0; written < share; index++) {
          line.setLength(0);
          line(random, f, files, index, bytes, line);
          line.append('\n');
          out.append(line);
          written += line.length();
        }
      }
      total += written;
    }
    return total;
  }
}
