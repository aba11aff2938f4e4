package org.locus.kat.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The splits of a KAT dataset, on the local file system: how many per owner, where, and that
 * reading them all yields every record exactly once even where a split cuts a line.
 */
class OwnerLocalInputFormatTest {
  private static final long BLOCK = 64 * 1024;

  @TempDir
  java.nio.file.Path dir;

  private Configuration conf;
  private Path dataset;
  /** Every line written, per owner. */
  private final Map<String, List<String>> linesOfOwner = new TreeMap<>();
  private final Map<String, Long> bytesOfOwner = new TreeMap<>();

  @BeforeEach
  void setUp() {
    conf = new Configuration(false);
    conf.set("fs.file.impl.disable.cache", "true");
    conf.setLong("dfs.blocksize", BLOCK);
    dataset = new Path(dir.toUri().toString(), "dataset");
  }

  @Test
  void eachOwnerGetsItsRoundedBlockCountOfEqualSplitsThatOnlyNameIt() throws Exception {
    writeBuckets("host-a", 16, 9_000);   // ~144 KB: 2.2 blocks -> 2 splits
    writeBuckets("host-b", 16, 11_000);  // ~176 KB: 2.7 blocks -> 3 splits
    writeBuckets("host-c", 3, 5_000);    // ~15 KB: under a block -> 1 split

    List<InputSplit> splits = splits();

    Map<String, List<CombineFileSplit>> ofOwner = new TreeMap<>();
    for (InputSplit s : splits) {
      CombineFileSplit split = (CombineFileSplit) s;
      assertEquals(1, split.getLocations().length, "a split names only its owner");
      ofOwner.computeIfAbsent(split.getLocations()[0], h -> new ArrayList<>()).add(split);
    }
    assertEquals(bytesOfOwner.keySet(), ofOwner.keySet());
    for (Map.Entry<String, List<CombineFileSplit>> e : ofOwner.entrySet()) {
      long bytes = bytesOfOwner.get(e.getKey());
      long expected = Math.max(1, Math.round(bytes / (double) BLOCK));
      assertEquals(expected, e.getValue().size(), "splits of " + e.getKey() + " (" + bytes
          + " bytes)");
      long target = (bytes + expected - 1) / expected;
      long sum = 0;
      for (int i = 0; i < e.getValue().size(); i++) {
        CombineFileSplit split = e.getValue().get(i);
        sum += split.getLength();
        if (i < e.getValue().size() - 1) {
          assertEquals(target, split.getLength(), "every split but the last is the target size");
        }
        for (Path p : split.getPaths()) {
          assertTrue(p.toString().contains("owner=" + e.getKey() + "/"), p + " in its owner's dir");
        }
      }
      assertEquals(bytes, sum, "the splits of " + e.getKey() + " cover its bytes");
    }
  }

  @Test
  void readingEverySplitYieldsEveryLineOnceThoughSplitsCutLines() throws Exception {
    writeBuckets("host-a", 5, 40_000);
    writeBuckets("host-b", 7, 30_000);

    List<String> read = new ArrayList<>();
    for (InputSplit split : splits()) {
      read.addAll(readAll(split));
    }

    List<String> written = new ArrayList<>();
    linesOfOwner.values().forEach(written::addAll);
    Collections.sort(written);
    Collections.sort(read);
    assertEquals(written.size(), read.size());
    assertEquals(written, read);
  }

  @Test
  void aCompressedBucketIsNeverCut() throws Exception {
    writeBuckets("host-a", 2, 30_000);
    Path gz = new Path(dataset, "owner=host-a/bucket-00002.gz");
    FileSystem fs = gz.getFileSystem(conf);
    byte[] random = new byte[3 * (int) BLOCK];
    new Random(7).nextBytes(random);   // incompressible: the .gz is about 3 blocks long
    try (OutputStream out = new GZIPOutputStream(fs.create(gz))) {
      out.write(random);
    }
    long gzLength = fs.getFileStatus(gz).getLen();

    int chunks = 0;
    for (InputSplit s : splits()) {
      CombineFileSplit split = (CombineFileSplit) s;
      for (int i = 0; i < split.getNumPaths(); i++) {
        if (split.getPath(i).getName().endsWith(".gz")) {
          chunks++;
          assertEquals(0, split.getOffset(i));
          assertEquals(gzLength, split.getLength(i));
        }
      }
    }
    assertEquals(1, chunks, "the compressed bucket is one chunk of one split");
  }

  @Test
  void aFileOutsideAnOwnerDirectoryIsRefusedByName() throws Exception {
    writeBuckets("host-a", 1, 1_000);
    Path stray = new Path(dataset, "stray.txt");
    try (Writer w = new java.io.OutputStreamWriter(stray.getFileSystem(conf).create(stray),
        StandardCharsets.UTF_8)) {
      w.write("x\n");
    }
    IOException e = assertThrows(IOException.class, this::splits);
    assertTrue(e.getMessage().contains("stray.txt") && e.getMessage().contains("owner=HOST"),
        e.getMessage());
  }

  private List<InputSplit> splits() throws IOException {
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputPaths(job, dataset);
    return new OwnerLocalInputFormat().getSplits(job);
  }

  private List<String> readAll(InputSplit split) throws Exception {
    TaskAttemptContext context = new TaskAttemptContextImpl(conf, new TaskAttemptID());
    List<String> lines = new ArrayList<>();
    try (RecordReader<LongWritable, Text> reader =
        new OwnerLocalInputFormat().createRecordReader(split, context)) {
      reader.initialize(split, context);
      while (reader.nextKeyValue()) {
        lines.add(reader.getCurrentValue().toString());
      }
    }
    return lines;
  }

  /** Writes {@code buckets} files of about {@code bytesEach} under {@code owner=HOST}. */
  private void writeBuckets(String host, int buckets, int bytesEach) throws IOException {
    Random random = new Random(host.hashCode());
    FileSystem fs = dataset.getFileSystem(conf);
    for (int b = 0; b < buckets; b++) {
      Path file = new Path(dataset, "owner=" + host + "/bucket-" + String.format("%05d", b));
      StringBuilder text = new StringBuilder();
      int n = 0;
      while (text.length() < bytesEach) {
        String line = host + " bucket " + b + " line " + n++ + " " + "w".repeat(random.nextInt(90));
        text.append(line).append('\n');
        linesOfOwner.computeIfAbsent(host, h -> new ArrayList<>()).add(line);
      }
      byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      try (OutputStream out = fs.create(file)) {
        out.write(bytes);
      }
      bytesOfOwner.merge(host, (long) bytes.length, Long::sum);
    }
  }
}
