package org.locus.cli.bench;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.StringUtils;
import org.locus.cli.cluster.FeatureCatalog;
import org.locus.cli.command.Console;
import org.locus.cli.command.HadoopLogFile;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.UsageException;

/**
 * What the benches that start their own netns clusters need from the command line's side: the
 * Locus home (the dist bundle is written from it), a feature's documented keys, a report
 * directory that also receives Hadoop's own logs, so they stay off the terminal, and the size of
 * one-block input files.
 */
public final class BenchSetup {
  private BenchSetup() {
  }

  /** @return the Locus home {@code bin/locus} passes as {@code locus.home} */
  public static File home() throws LocusException {
    String home = System.getProperty("locus.home");
    if (home == null) {
      throw new LocusException("locus.home is not set; run through bin/locus");
    }
    return new File(home);
  }

  /** @return the keys of {@code conf/features/NAME.xml}, in file order */
  public static Map<String, String> featureKeys(String feature) throws Exception {
    Configuration conf = FeatureCatalog.installed().keysOf(feature);
    Map<String, String> keys = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : conf) {
      keys.put(e.getKey(), conf.getRaw(e.getKey()));
    }
    return keys;
  }

  /**
   * Creates the report directory and sends Hadoop's logs to {@code hadoop.log} in it, saying so
   * on standard error.
   *
   * @return the directory, absolute
   */
  public static File reportDirectory(String path, Console console)
      throws LocusException, java.io.IOException {
    File out = new File(path).getAbsoluteFile();
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new LocusException("cannot create " + out);
    }
    File log = new File(out, "hadoop.log");
    HadoopLogFile.redirectTo(log);
    console.err().println("Hadoop's own logs: " + log);
    return out;
  }

  /**
   * @param text the value of {@code --file-size}, e.g. {@code 64k} or {@code 1m}
   * @return its bytes, checked to fit one block (1 byte to 256 MiB)
   * @throws UsageException naming the option and what it accepts
   */
  public static int oneBlockFileBytes(String text) throws UsageException {
    long bytes;
    try {
      bytes = StringUtils.TraditionalBinaryPrefix.string2long(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--file-size needs a size like 64k or 1m, got '" + text + "'");
    }
    if (bytes < 1 || bytes > 256L << 20) {
      throw new UsageException("--file-size must be 1..256m (one block), got " + text);
    }
    return (int) bytes;
  }
}
