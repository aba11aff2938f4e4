package org.locus.kat.ingest;

import java.io.BufferedWriter;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.IOUtils;

/**
 * Centralised queues (seed 000 §3.4.3, first design): the importing client keeps one queue per
 * bucket, spilled to a local directory, and when the input is consumed ships the buckets to
 * their owners one after another. One HDFS pipeline at a time and little memory; the local spill
 * costs one extra local write and read of the data. Suits small clusters and a single importer.
 */
final class CentralQueues implements BucketSink {
  private final BucketFiles files;
  private final File spillDir;
  private final Writer[] queues;

  CentralQueues(BucketFiles files, int buckets) throws IOException {
    this.files = files;
    this.spillDir = Files.createTempDirectory("kat-import-queues").toFile();
    this.queues = new Writer[buckets];
  }

  @Override
  public void add(int bucket, String record) throws IOException {
    if (queues[bucket] == null) {
      queues[bucket] = new BufferedWriter(new OutputStreamWriter(
          new FileOutputStream(spill(bucket)), StandardCharsets.UTF_8), 64 * 1024);
    }
    queues[bucket].write(record);
    queues[bucket].write('\n');
  }

  private File spill(int bucket) {
    return new File(spillDir, "bucket-" + bucket);
  }

  @Override
  public void finish() throws IOException {
    for (int bucket = 0; bucket < queues.length; bucket++) {
      if (queues[bucket] == null) {
        continue;
      }
      queues[bucket].close();
      queues[bucket] = null;
      try (InputStream in = new FileInputStream(spill(bucket));
           FSDataOutputStream out = files.create(bucket)) {
        IOUtils.copyBytes(in, out, 64 * 1024, false);
        out.hsync();
      }
      Files.delete(spill(bucket).toPath());
    }
    close();
  }

  @Override
  public void close() throws IOException {
    for (Writer queue : queues) {
      IOUtils.closeStream(queue);
    }
    FileUtil.fullyDelete(spillDir);
  }
}
