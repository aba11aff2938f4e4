package org.locus.jobs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobCatalog;
import org.locus.jobs.catalog.JobResult;

/**
 * Runs catalog jobs with MapReduce's LocalJobRunner on the local file system: no cluster, a
 * few seconds per job. Correctness tests use it; cluster behaviour is tested elsewhere.
 */
public final class LocalJobFixture {
  private final File root;
  private final Configuration conf = new Configuration();
  private final JobCatalog catalog = new JobCatalog();
  private int runs;

  public LocalJobFixture(File root) {
    this.root = root;
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    conf.setInt("mapreduce.local.reduce.tasks.maximum", 2);
    conf.setInt("mapreduce.task.io.sort.mb", 16);
    // The client's default looks for a job's end every 5 s, longer than a local job runs.
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
  }

  public Configuration conf() {
    return conf;
  }

  /** @return a new directory under the fixture's root */
  public File directory(String name) {
    File dir = new File(root, name);
    dir.mkdirs();
    return dir;
  }

  /**
   * Runs catalog job {@code name} with {@code reducers} reducers and options given as
   * alternating names and values ({@code ""} for a flag); asserts that it passed.
   *
   * @return the output directory
   */
  public File run(String name, File input, int reducers, String... options) throws Exception {
    File output = new File(root, "out-" + name + "-" + (++runs));
    JobResult result = runResult(name, input, output, reducers, options);
    assertTrue(result.passed(), name + " failed: " + result);
    return output;
  }

  /** Runs a catalog job and returns its result, passed or not. */
  public JobResult runResult(String name, File input, File output, int reducers,
      String... options) throws Exception {
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < options.length; i += 2) {
      values.put(options[i], options[i + 1]);
    }
    return catalog.get(name).run(new Configuration(conf),
        input == null ? null : new Path(input.toURI()), new Path(output.toURI()),
        new JobArguments(values, reducers));
  }

  /** @return the lines of every {@code part-*} file of {@code dir}, files in name order */
  public static List<String> lines(File dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (File part : parts(dir)) {
      lines.addAll(Files.readAllLines(part.toPath(), StandardCharsets.UTF_8));
    }
    return lines;
  }

  /** @return the {@code part-*} files of {@code dir} in name order */
  public static List<File> parts(File dir) {
    File[] parts = dir.listFiles((d, n) -> n.startsWith("part-"));
    assertTrue(parts != null && parts.length > 0, "no part files in " + dir);
    Arrays.sort(parts);
    return List.of(parts);
  }
}
