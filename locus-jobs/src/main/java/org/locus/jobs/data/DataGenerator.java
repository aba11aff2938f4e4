package org.locus.jobs.data;

import java.io.IOException;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A seeded generator of one kind of benchmark input ({@code locus generate KIND}), sized in
 * bytes. Equal kind, size, file count and seed give equal files.
 */
public interface DataGenerator {
  /** @return the kind's name, e.g. {@code ratings} */
  String kind();

  /** @return one line: the format and the jobs that read it */
  String summary();

  /**
   * Writes about {@code bytes} bytes into {@code files} files {@code part-00000}, ... of the new
   * directory {@code dir}: line-oriented kinds end each file at the first line end at or past
   * its share, so the total exceeds {@code bytes} by less than one line per file.
   *
   * @return bytes written
   */
  long write(FileSystem fs, Path dir, long bytes, int files, long seed) throws IOException;
}
