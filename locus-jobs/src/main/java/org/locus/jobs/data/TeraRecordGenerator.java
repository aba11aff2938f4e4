package org.locus.jobs.data;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.jobs.puma.TeraRecords;

/**
 * {@code tera}: 100-byte tera records with 10-byte random keys ({@link TeraRecords}); size
 * rounded down to whole records. The same rows as {@code locus job teragen} with that seed.
 */
final class TeraRecordGenerator implements DataGenerator {
  @Override
  public String kind() {
    return "tera";
  }

  @Override
  public String summary() {
    return "100-byte records, 10-byte random keys (terasort, teravalidate)";
  }

  @Override
  public long write(FileSystem fs, Path dir, long bytes, int files, long seed)
      throws IOException {
    DataGenerators.checkSize(bytes, files);
    long rows = bytes / TeraRecords.RECORD_BYTES;
    byte[] record = new byte[TeraRecords.RECORD_BYTES];
    for (int f = 0; f < files; f++) {
      try (OutputStream out = new BufferedOutputStream(
          fs.create(DataGenerators.partFile(dir, f), false), 1 << 16)) {
        for (long row = rows * f / files; row < rows * (f + 1) / files; row++) {
          TeraRecords.fill(seed, row, record);
          out.write(record);
        }
      }
    }
    return rows * TeraRecords.RECORD_BYTES;
  }
}
