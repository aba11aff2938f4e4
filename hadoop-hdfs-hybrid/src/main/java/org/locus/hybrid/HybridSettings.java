package org.locus.hybrid;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The hybrid profile's keys ({@link HybridConfigKeys}; conf/features/hybrid.xml), parsed and
 * checked once: which HDFS
 * paths hold input and output on SSD, and with which stock storage policy.
 *
 * @param ssdPaths absolute HDFS paths whose files live on SSD volumes
 * @param ssdPolicy {@code ALL_SSD} (every replica on SSD) or {@code ONE_SSD} (one replica)
 */
public record HybridSettings(List<Path> ssdPaths, String ssdPolicy) {
  /** The stock policies that put replicas on SSD; LAZY_PERSIST and PROVIDED are not layouts. */
  public static final List<String> SSD_POLICIES = List.of("ALL_SSD", "ONE_SSD");

  public HybridSettings {
    ssdPaths = List.copyOf(ssdPaths);
  }

  /**
   * @throws IllegalArgumentException naming the key, the bad value and what is allowed
   */
  public static HybridSettings from(Configuration conf) {
    String policy = conf.getTrimmed(HybridConfigKeys.SSD_POLICY, HybridConfigKeys.SSD_POLICY_DEFAULT).toUpperCase();
    if (!SSD_POLICIES.contains(policy)) {
      throw new IllegalArgumentException(HybridConfigKeys.SSD_POLICY + " = '"
          + conf.getTrimmed(HybridConfigKeys.SSD_POLICY) + "': expected one of " + SSD_POLICIES);
    }
    Set<Path> paths = new LinkedHashSet<>();
    for (String text : conf.getTrimmedStrings(HybridConfigKeys.SSD_PATHS, HybridConfigKeys.SSD_PATHS_DEFAULT)) {
      Path path;
      try {
        path = new Path(text);
      } catch (IllegalArgumentException e) { // not a URI: "a:b" (found by locus-fuzz)
        path = null;
      }
      if (path == null || !path.isUriPathAbsolute() || path.toUri().getScheme() != null) {
        throw new IllegalArgumentException(HybridConfigKeys.SSD_PATHS + ": '" + text + "' is not an absolute"
            + " HDFS path such as /hybrid/input");
      }
      paths.add(path);
    }
    if (paths.isEmpty()) {
      throw new IllegalArgumentException(HybridConfigKeys.SSD_PATHS + " is empty; name the paths whose input"
          + " and output belong on SSD, e.g. /hybrid");
    }
    return new HybridSettings(new ArrayList<>(paths), policy);
  }

  /** @return whether {@code path} (absolute, without scheme) lies under one of the SSD paths */
  public boolean onSsd(Path path) {
    String p = Path.getPathWithoutSchemeAndAuthority(path).toString();
    for (Path ssd : ssdPaths) {
      String root = ssd.toString();
      if (p.equals(root) || p.startsWith(root.endsWith("/") ? root : root + "/")) {
        return true;
      }
    }
    return false;
  }
}
