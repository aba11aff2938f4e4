package org.locus.bench.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checked WordCount's answer is the input's true count, and a wrong output is caught: the
 * input is counted again here by reading it back, and outputs with one count off, one word
 * missing or one word twice are compared.
 */
class CountedWordCountTest {
  @TempDir
  Path tmp;

  @Test
  void theAnswerIsWhatTheInputHoldsAndAWrongOutputIsNamed() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(tmp.toUri());
    CountedWordCount counted = new CountedWordCount(root);
    counted.writeInput(fs, 3, 2, 500);
    Map<String, Long> recount = new TreeMap<>();
    for (FileStatus part : fs.listStatus(new org.apache.hadoop.fs.Path(root, "input"),
        p -> p.getName().startsWith("part-"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          fs.open(part.getPath()), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          StringTokenizer words = new StringTokenizer(line);
          while (words.hasMoreTokens()) {
            recount.merge(words.nextToken(), 1L, Long::sum);
          }
        }
      }
    }
    assertEquals(recount, counted.answer());
    assertTrue(counted.answer().size() > 50, "a vocabulary, not a handful of words");

    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(root, "out");
    write(fs, out, counted.answer(), null, 0);
    assertEquals("", counted.compare(fs, out));
    String first = counted.answer().keySet().iterator().next();
    write(fs, out, counted.answer(), first, 1);
    assertTrue(counted.compare(fs, out).contains(first + ": counted "
        + (counted.answer().get(first) + 1) + ", written " + counted.answer().get(first)),
        counted.compare(fs, out));
    Map<String, Long> missing = new TreeMap<>(counted.answer());
    missing.remove(first);
    write(fs, out, missing, null, 0);
    assertTrue(counted.compare(fs, out).contains(first + ": counted null"),
        counted.compare(fs, out));
    fs.delete(out, true);
    try (OutputStream o = fs.create(new org.apache.hadoop.fs.Path(out, "part-r-00000"))) {
      o.write((first + "\t1\n" + first + "\t1\n").getBytes(StandardCharsets.UTF_8));
    }
    assertTrue(counted.compare(fs, out).contains("repeats a word"), counted.compare(fs, out));
  }

  private static void write(FileSystem fs, org.apache.hadoop.fs.Path out,
      Map<String, Long> counts, String changed, long delta) throws Exception {
    fs.delete(out, true);
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    int i = 0;
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      long value = e.getValue() + (e.getKey().equals(changed) ? delta : 0);
      (i++ % 2 == 0 ? a : b).append(e.getKey()).append('\t').append(value).append('\n');
    }
    try (OutputStream o = fs.create(new org.apache.hadoop.fs.Path(out, "part-r-00000"))) {
      o.write(a.toString().getBytes(StandardCharsets.UTF_8));
    }
    try (OutputStream o = fs.create(new org.apache.hadoop.fs.Path(out, "part-r-00001"))) {
      o.write(b.toString().getBytes(StandardCharsets.UTF_8));
    }
  }
}
