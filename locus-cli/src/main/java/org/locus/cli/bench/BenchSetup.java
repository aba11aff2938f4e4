package org.locus.cli.bench;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.locus.cli.Console;
import org.locus.cli.HadoopLogFile;
import org.locus.cli.LocusException;
import org.locus.cli.cluster.FeatureCatalog;

/**
 * What the benches that start their own netns clusters need from the command line's side: the
 * Locus home (the dist bundle is written from it), a feature's documented keys, and a report
 * directory that also receives Hadoop's own logs, so they stay off the terminal.
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
}
