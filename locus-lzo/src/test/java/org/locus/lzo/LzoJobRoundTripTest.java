package org.locus.lzo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;

/**
 * A real MapReduce job (WordCount without a combiner, so every token crosses the shuffle) on
 * Hadoop's local job runner, once uncompressed and once with LZO map output and lzop job output:
 * the LZO run's output decompresses to exactly the uncompressed run's. Costs about 15 s.
 */
class LzoJobRoundTripTest {
  /** The 9-byte magic that starts every lzop file. */
  private static final byte[] LZOP_MAGIC =
      {(byte) 0x89, 'L', 'Z', 'O', 0x00, '\r', '\n', 0x1a, '\n'};

  private static FileSystem fs;
  private static Configuration lzoConf;
  private static Path plainOutput;
  private static Path lzoOutput;
  private static JobOutcome plain;
  private static JobOutcome lzo;

  @BeforeAll
  static void runBothJobs() throws Exception {
    Path root = new Path(System.getProperty("test.build.data", "target/test-data"),
        "lzo-round-trip").makeQualified(FileSystem.getLocal(new Configuration()).getUri(),
            new Path("/"));
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    // The client's default looks for a job's end every 5 s, longer than a local job runs.
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    conf.setBoolean(WordCount.COMBINER_KEY, false);
    fs = FileSystem.getLocal(conf);
    fs.delete(root, true);
    Path input = new Path(root, "input");
    new ZipfTextGenerator(5000, 1.0, 14).write(fs, input, 2, 512 * 1024);

    plainOutput = new Path(root, "plain");
    plain = JobOutcome.run(WordCount.create(conf, input, plainOutput, 2), false);

    lzoConf = new Configuration(conf);
    LzoJobCompression.compressMapOutput(lzoConf);
    LzoJobCompression.compressJobOutput(lzoConf);
    LzoJobCompression.registerCodecs(lzoConf);
    lzoOutput = new Path(root, "lzo");
    lzo = JobOutcome.run(WordCount.create(lzoConf, input, lzoOutput, 2), false);
    assertTrue(plain.succeeded(), "uncompressed WordCount failed");
    assertTrue(lzo.succeeded(), "LZO WordCount failed");
  }

  @Test
  void jobOutputDecompressesToTheUncompressedRunsOutput() throws IOException {
    List<String> expected = readParts(plainOutput);
    assertFalse(expected.isEmpty(), "the uncompressed run wrote no records");
    assertEquals(expected, readParts(lzoOutput));
  }

  @Test
  void jobOutputFilesAreLzopFiles() throws IOException {
    FileStatus[] parts = fs.globStatus(new Path(lzoOutput, "part-r-*"));
    assertEquals(2, parts.length);
    for (FileStatus part : parts) {
      assertTrue(part.getPath().getName().endsWith(".lzo"), part.getPath().toString());
      byte[] head = new byte[LZOP_MAGIC.length];
      try (InputStream in = fs.open(part.getPath())) {
        assertEquals(head.length, in.readNBytes(head, 0, head.length));
      }
      assertArrayEquals(LZOP_MAGIC, head, "not an lzop file: " + part.getPath());
    }
  }

  @Test
  void mapOutputIsMaterializedCompressed() {
    long plainBytes = mapOutputMaterialized(plain);
    long lzoBytes = mapOutputMaterialized(lzo);
    assertEquals(plain.counters().findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(),
        lzo.counters().findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue());
    assertTrue(lzoBytes * 2 < plainBytes,
        "LZO map output " + lzoBytes + " B is not under half of plain " + plainBytes + " B");
  }

  @Test
  void reducersReadTheSameRecordsAsUncompressed() {
    assertEquals(plain.counters().findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue(),
        lzo.counters().findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue());
  }

  private static long mapOutputMaterialized(JobOutcome outcome) {
    return outcome.counters().findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue();
  }

  /** All lines of a job's part files in part order, decompressed by their extension's codec. */
  private static List<String> readParts(Path output) throws IOException {
    FileStatus[] parts = fs.globStatus(new Path(output, "part-r-*"));
    Arrays.sort(parts);
    CompressionCodecFactory codecs = new CompressionCodecFactory(lzoConf);
    List<String> lines = new ArrayList<>();
    for (FileStatus part : parts) {
      CompressionCodec codec = codecs.getCodec(part.getPath());
      InputStream raw = fs.open(part.getPath());
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          codec == null ? raw : codec.createInputStream(raw), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          lines.add(line);
        }
      }
    }
    return lines;
  }
}
