package org.locus.cli.cluster;

import java.io.File;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.locus.cli.UsageException;

/**
 * The documented key set of each Locus feature, one Hadoop configuration file per feature:
 * {@code conf/features/NAME.xml} under the Locus home ({@code -Dlocus.home}, set by
 * {@code bin/locus}). {@code --feature NAME} applies that file's keys to a cluster.
 */
public final class FeatureCatalog {
  private final File directory;

  public FeatureCatalog(File directory) {
    this.directory = directory;
  }

  /** @return the catalogue of the running installation */
  public static FeatureCatalog installed() {
    String home = System.getProperty("locus.home");
    return new FeatureCatalog(home == null ? null : new File(home, "conf/features"));
  }

  /** @return the names of the features that have a key set */
  public List<String> names() {
    File[] files = directory == null ? null
        : directory.listFiles((d, name) -> name.endsWith(".xml"));
    if (files == null) {
      return List.of();
    }
    return Arrays.stream(files).map(f -> f.getName().replaceFirst("\\.xml$", "")).sorted()
        .toList();
  }

  /** @return the keys of feature {@code name}; an unknown name is a usage error */
  public Configuration keysOf(String name) throws UsageException {
    File file = directory == null ? null : new File(directory, name + ".xml");
    if (file == null || !name.matches("[a-z0-9-]+") || !file.isFile()) {
      List<String> known = names();
      throw new UsageException("unknown feature '" + name + "'; "
          + (known.isEmpty() ? "no feature key sets are installed"
              + (directory == null ? " (locus.home is not set)" : " in " + directory)
              : "known features: " + String.join(", ", known)));
    }
    Configuration keys = new Configuration(false);
    keys.addResource(new Path(file.toURI()));
    keys.size(); // loads the file now, so a malformed one fails here naming it
    return keys;
  }
}
