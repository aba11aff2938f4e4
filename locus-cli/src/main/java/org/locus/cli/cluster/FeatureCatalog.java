package org.locus.cli.cluster;

import java.io.File;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.locus.cli.command.UsageException;
import org.locus.placement.PlacementConfigKeys;

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

  /**
   * The keys of several features together, as {@code --feature A --feature B} applies them. A
   * key that holds a list of plug-ins or services ({@link #LIST_KEYS}) gets every feature's
   * entries, once each, in feature order; any other key two features set must have the same
   * value, else the features cannot run together and that is a usage error naming both, the
   * key and the two values (the last one silently winning would switch a feature off).
   */
  public Configuration keysOf(List<String> names) throws UsageException {
    Configuration merged = new Configuration(false);
    Map<String, String> setBy = new HashMap<>();
    for (String name : names) {
      Configuration keys = keysOf(name);
      for (Map.Entry<String, String> e : keys) {
        String key = e.getKey();
        String value = keys.getRaw(key);
        String before = merged.getRaw(key);
        if (before == null) {
          merged.set(key, value);
          setBy.put(key, name);
        } else if (LIST_KEYS.contains(key)) {
          Set<String> entries = new LinkedHashSet<>(List.of(merged.getTrimmedStrings(key)));
          entries.addAll(List.of(keys.getTrimmedStrings(key)));
          merged.set(key, String.join(",", entries));
        } else if (!before.trim().equals(value.trim())) {
          throw new UsageException("features '" + setBy.get(key) + "' and '" + name
              + "' cannot run together: both set " + key + " (" + before.trim() + " vs "
              + value.trim() + ")");
        }
      }
    }
    return merged;
  }

  /**
   * Keys whose value is a comma-separated list that several features may each add to: plug-ins,
   * services and the NameNode placement router's rules (kat and boost each add one).
   */
  static final Set<String> LIST_KEYS = Set.of("dfs.namenode.plugins", "dfs.datanode.plugins",
      "yarn.nodemanager.aux-services", PlacementConfigKeys.RULES);
}
