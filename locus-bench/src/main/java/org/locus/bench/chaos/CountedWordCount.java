package org.locus.bench.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;

/**
 * A WordCount whose answer is known: the input is written here with words drawn from a seed and
 * counted as they are written, and each run's output is read back and compared word for word.
 * A job that succeeds with a wrong count (a lost or doubled block, a task's output committed
 * twice) is caught, not only a job that fails.
 */
public final class CountedWordCount {
  private static final int VOCABULARY = 500;

  private final Path root;
  private final Map<String, Long> answer = new TreeMap<>();

  /** @param root the directory for the input ({@code root/input}) and outputs */
  public CountedWordCount(Path root) {
    this.root = root;
  }

  /**
   * Writes the input: {@code files} files of {@code linesPerFile} lines, replication 3.
   *
   * @return the input's bytes
   */
  public long writeInput(FileSystem fs, long seed, int files, int linesPerFile)
      throws IOException {
    Random random = new Random(seed);
    answer.clear();
    long bytes = 0;
    for (int f = 0; f < files; f++) {
      StringBuilder text = new StringBuilder();
      for (int l = 0; l < linesPerFile; l++) {
        int words = 1 + random.nextInt(12);
        for (int w = 0; w < words; w++) {
          // a skewed vocabulary, as text has: a few words are most of the occurrences
          String word = "w" + (int) Math.floor(VOCABULARY * Math.pow(random.nextDouble(), 3));
          answer.merge(word, 1L, Long::sum);
          text.append(w == 0 ? "" : " ").append(word);
        }
        text.append('\n');
      }
      byte[] data = text.toString().getBytes(StandardCharsets.UTF_8);
      try (OutputStream out = fs.create(new Path(input(), "part-" + f), (short) 3)) {
        out.write(data);
      }
      bytes += data.length;
    }
    return bytes;
  }

  private Path input() {
    return new Path(root, "input");
  }

  /** @return the expected count of each word */
  public Map<String, Long> answer() {
    return Map.copyOf(answer);
  }

  /** Runs WordCount number {@code index} and checks its output. */
  public CheckedJob run(Configuration conf, int index, long startNanos) {
    String name = "wordcount-" + index;
    long start = sinceStart(startNanos);
    Path output = new Path(root, "out-" + index);
    try {
      Job job = WordCount.create(new Configuration(conf), input(), output, 2);
      job.setJobName("locus-chaos-" + name);
      JobOutcome outcome = JobOutcome.run(job, false);
      long end = sinceStart(startNanos);
      if (!outcome.succeeded()) {
        return new CheckedJob(name, "wordcount", start, end, false, false, false,
            outcome.failure());
      }
      String wrong = compare(output.getFileSystem(conf), output);
      return new CheckedJob(name, "wordcount", start, end, true, true, wrong.isEmpty(), wrong);
    } catch (Exception e) {
      // The client can lose a job it submitted (its ApplicationMaster died with a killed
      // NodeManager and the retry finished it): the job is judged by its committed output.
      long end = sinceStart(startNanos);
      try {
        FileSystem fs = output.getFileSystem(conf);
        if (fs.exists(new Path(output, "_SUCCESS"))) {
          String wrong = compare(fs, output);
          return new CheckedJob(name, "wordcount", start, end, true, true, wrong.isEmpty(),
              wrong.isEmpty() ? "the client lost the job (" + e.getMessage().trim()
                  + "); its committed output was checked" : wrong);
        }
      } catch (IOException | RuntimeException again) {
        e.addSuppressed(again);
      }
      return new CheckedJob(name, "wordcount", start, end, false, false, false, e.toString());
    }
  }

  /** @return what differs between the output's counts and the answer; empty when equal */
  String compare(FileSystem fs, Path output) throws IOException {
    Map<String, Long> counted = new TreeMap<>();
    for (FileStatus part : fs.listStatus(output, p -> p.getName().startsWith("part-"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(part.getPath()),
          StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          int tab = line.indexOf('\t');
          if (tab < 0 || counted.put(line.substring(0, tab),
              Long.parseLong(line.substring(tab + 1).trim())) != null) {
            return "output line '" + line + "' of " + part.getPath().getName()
                + " is malformed or repeats a word";
          }
        }
      }
    }
    if (counted.equals(answer)) {
      return "";
    }
    int shown = 0;
    StringBuilder diff = new StringBuilder();
    for (String word : new java.util.TreeSet<>(union(counted, answer))) {
      Long got = counted.get(word);
      Long want = answer.get(word);
      if (!java.util.Objects.equals(got, want) && shown++ < 5) {
        diff.append(diff.length() == 0 ? "" : ", ").append(word).append(": counted ")
            .append(got).append(", written ").append(want);
      }
    }
    return "wrong counts (" + diff + ")";
  }

  private static java.util.Set<String> union(Map<String, Long> a, Map<String, Long> b) {
    java.util.Set<String> all = new java.util.HashSet<>(a.keySet());
    all.addAll(b.keySet());
    return all;
  }

  private static long sinceStart(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
