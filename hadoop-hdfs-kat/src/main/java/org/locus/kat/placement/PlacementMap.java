package org.locus.kat.placement;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A KAT dataset's placement map, stored with the data in {@code _kat/placement.properties}:
 * which hint computed the keys, how many buckets, and which hosts own them (in partition order:
 * reducer {@code p} of a key-aware job runs on {@code hosts.get(p)}).
 *
 * <pre>
 *   version=1
 *   hint=wordcount
 *   buckets=64
 *   hosts=127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5
 * </pre>
 *
 * @param hint the hint specification ({@code wordcount}, {@code grep:REGEX}, ...)
 * @param buckets number of key buckets
 * @param hosts owner hosts, sorted; the partition order of aligned reducers
 */
public record PlacementMap(String hint, int buckets, List<String> hosts) {
  public static final int VERSION = 1;

  public PlacementMap {
    hosts = hosts.stream().sorted().toList();
  }

  public KeyOwnership ownership() {
    return new KeyOwnership(buckets, hosts);
  }

  public void write(FileSystem fs, Path dataset) throws IOException {
    Properties p = new Properties();
    p.setProperty("version", Integer.toString(VERSION));
    p.setProperty("hint", hint);
    p.setProperty("buckets", Integer.toString(buckets));
    p.setProperty("hosts", String.join(",", hosts));
    Path file = OwnerPaths.placementFile(dataset);
    Path tmp = new Path(file.getParent(), "." + file.getName() + ".tmp");
    try (OutputStream out = fs.create(tmp, true)) {
      p.store(out, "KAT placement map: key bucket -> owner host");
    }
    fs.delete(file, false);
    if (!fs.rename(tmp, file)) {
      throw new IOException("could not rename " + tmp + " to " + file);
    }
  }

  /** @throws IOException naming the dataset when it has no (valid) placement map */
  public static PlacementMap read(FileSystem fs, Path dataset) throws IOException {
    Path file = OwnerPaths.placementFile(dataset);
    if (!fs.exists(file)) {
      throw new IOException(dataset + " is not a KAT dataset: " + file + " is missing"
          + " (create one with 'locus kat import')");
    }
    Properties p = new Properties();
    try (InputStream in = fs.open(file)) {
      p.load(in);
    }
    String version = p.getProperty("version");
    if (!Integer.toString(VERSION).equals(version)) {
      throw new IOException(file + " has placement map version " + version + "; this Locus"
          + " reads version " + VERSION);
    }
    try {
      return new PlacementMap(p.getProperty("hint"), Integer.parseInt(p.getProperty("buckets")),
          Arrays.asList(p.getProperty("hosts").split(",")));
    } catch (RuntimeException e) {
      throw new IOException(file + " is malformed: " + e.getMessage(), e);
    }
  }
}
