package org.locus.lowpower.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kit.LocusMiniCluster;

/**
 * WordCount on Hadoop's local job runner reading and writing a one-node embedded HDFS, once with
 * the stock {@link TextOutputFormat} and once with {@link BufferedTextOutputFormat}: the part
 * files are byte for byte the same, plain and gzip-compressed with a custom separator. About
 * 30 s.
 */
class BufferedTextOutputFormatTest {
  @TempDir
  static File tmp;
  private static LocusMiniCluster cluster;
  private static FileSystem fs;
  private static Configuration conf;
  private static final Path INPUT = new Path("/input");

  @BeforeAll
  static void startClusterAndWriteInput() throws Exception {
    cluster = LocusMiniCluster.builder(new File(tmp, "cluster")).nodes(1).start();
    fs = cluster.getFileSystem();
    conf = cluster.getConfiguration();
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.cluster.local.dir", new File(tmp, "local").getPath());
    conf.setBoolean(WordCount.COMBINER_KEY, false);
    new ZipfTextGenerator(5000, 1.0, 11).write(fs, INPUT, 2, 256 * 1024);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void plainOutputIsByteIdenticalToTextOutputFormat() throws Exception {
    assertSameParts(run(conf, "plain", TextOutputFormat.class),
        run(conf, "plain-buffered", BufferedTextOutputFormat.class), "");
  }

  @Test
  void gzipOutputWithACustomSeparatorIsByteIdenticalToTextOutputFormat() throws Exception {
    Configuration gzip = new Configuration(conf);
    gzip.set(TextOutputFormat.SEPARATOR, " => ");
    gzip.setBoolean(FileOutputFormat.COMPRESS, true);
    gzip.set(FileOutputFormat.COMPRESS_CODEC, "org.apache.hadoop.io.compress.GzipCodec");
    assertSameParts(run(gzip, "gzip", TextOutputFormat.class),
        run(gzip, "gzip-buffered", BufferedTextOutputFormat.class), ".gz");
  }

  @SuppressWarnings("rawtypes")
  private static Path run(Configuration jobConf, String name,
      Class<? extends TextOutputFormat> format) throws Exception {
    Path output = new Path("/output/" + name);
    Job job = WordCount.create(jobConf, INPUT, output, 2);
    job.setOutputFormatClass(format);
    JobOutcome outcome = JobOutcome.run(job, false);
    assertTrue(outcome.succeeded(), name + " WordCount failed");
    return output;
  }

  private static void assertSameParts(Path stock, Path buffered, String extension)
      throws IOException {
    List<FileStatus> stockParts = parts(stock);
    List<FileStatus> bufferedParts = parts(buffered);
    assertEquals(2, stockParts.size(), stockParts.toString());
    assertEquals(names(stockParts), names(bufferedParts));
    for (int i = 0; i < stockParts.size(); i++) {
      assertTrue(stockParts.get(i).getPath().getName().endsWith(extension),
          stockParts.get(i).getPath().toString());
      byte[] expected = read(stockParts.get(i).getPath());
      assertTrue(expected.length > 1000, "a part of " + expected.length + " bytes is too small"
          + " to tell");
      assertArrayEquals(expected, read(bufferedParts.get(i).getPath()),
          bufferedParts.get(i).getPath().toString());
    }
  }

  private static List<FileStatus> parts(Path output) throws IOException {
    FileStatus[] parts = fs.globStatus(new Path(output, "part-r-*"));
    Arrays.sort(parts);
    return Arrays.asList(parts);
  }

  private static List<String> names(List<FileStatus> parts) {
    List<String> names = new ArrayList<>();
    parts.forEach(p -> names.add(p.getPath().getName()));
    return names;
  }

  private static byte[] read(Path file) throws IOException {
    try (InputStream in = fs.open(file)) {
      return in.readAllBytes();
    }
  }
}
