package org.locus.kat.placement;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
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
 *   version=2
 *   hint=wordcount
 *   buckets=64
 *   hosts=127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5
 *   owners=2,0,3,1,...        bucket b's owner is hosts[owners[b]] (load-bounded placement)
 * </pre>
 *
 * Version 1 maps have no {@code owners}: bucket b belongs to the top of its rendezvous order.
 *
 * @param hint the hint specification ({@code wordcount}, {@code grep:REGEX}, ...)
 * @param buckets number of key buckets
 * @param hosts owner hosts, sorted; the partition order of aligned reducers
 * @param owners the owner host of each bucket, or empty for plain rendezvous ownership
 */
public record PlacementMap(String hint, int buckets, List<String> hosts, List<String> owners) {
  public static final int VERSION = 2;

  public PlacementMap {
    hosts = hosts.stream().sorted().toList();
    owners = List.copyOf(owners);
  }

  /** A map with plain rendezvous ownership. */
  public PlacementMap(String hint, int buckets, List<String> hosts) {
    this(hint, buckets, hosts, List.of());
  }

  public KeyOwnership ownership() {
    return new KeyOwnership(buckets, hosts, owners);
  }

  /** @return the index in {@link #hosts} of each bucket's owner, comma-separated */
  public String ownerIndexes() {
    StringBuilder s = new StringBuilder();
    KeyOwnership ownership = ownership();
    for (int bucket = 0; bucket < buckets; bucket++) {
      s.append(bucket == 0 ? "" : ",").append(hosts.indexOf(ownership.ownerOfBucket(bucket)));
    }
    return s.toString();
  }

  /** @return explicit owners from {@link #ownerIndexes()}'s form; empty input, empty list */
  public static List<String> ownersOf(String ownerIndexes, List<String> sortedHosts) {
    if (ownerIndexes == null || ownerIndexes.isBlank()) {
      return List.of();
    }
    List<String> owners = new ArrayList<>();
    for (String index : ownerIndexes.split(",")) {
      owners.add(sortedHosts.get(Integer.parseInt(index.trim())));
    }
    return owners;
  }

  public void write(FileSystem fs, Path dataset) throws IOException {
    Properties p = new Properties();
    p.setProperty("version", Integer.toString(VERSION));
    p.setProperty("hint", hint);
    p.setProperty("buckets", Integer.toString(buckets));
    p.setProperty("hosts", String.join(",", hosts));
    if (!owners.isEmpty()) {
      p.setProperty("owners", ownerIndexes());
    }
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
    } catch (IllegalArgumentException e) { // a malformed backslash-u escape (found by locus-fuzz)
      throw new IOException(file + " is malformed: " + e.getMessage(), e);
    }
    String version = p.getProperty("version");
    if (!"1".equals(version) && !Integer.toString(VERSION).equals(version)) {
      throw new IOException(file + " has placement map version " + version + "; this Locus"
          + " reads versions 1 and " + VERSION);
    }
    try {
      List<String> hosts = Arrays.stream(p.getProperty("hosts").split(",")).sorted().toList();
      PlacementMap map = new PlacementMap(p.getProperty("hint"),
          Integer.parseInt(p.getProperty("buckets")), hosts,
          ownersOf(p.getProperty("owners"), hosts));
      map.ownership(); // checks buckets >= 1, hosts and owners here, not in the NameNode's rule
      return map;
    } catch (RuntimeException e) {
      throw new IOException(file + " is malformed: " + e.getMessage(), e);
    }
  }
}
