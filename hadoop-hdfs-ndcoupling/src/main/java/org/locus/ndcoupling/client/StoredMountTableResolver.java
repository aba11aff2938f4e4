package org.locus.ndcoupling.client;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * The mount table as the entry node stores it ({@link MountTableStore}), or, before any version
 * is stored, the default table ({@link MountTable#defaultFor}, version 0) computed from the
 * partitions of {@code dfs.nameservices} and {@code locus.ndcoupling.mount.default-dirs}, which
 * every site file of the cluster shares.
 *
 * <p>The entry node's file system is opened on the first question and kept until
 * {@link #close}: a running client asks for the version every refresh interval, and that is
 * one listing of the mount directory, not a new client each time.
 */
public class StoredMountTableResolver implements PartitionResolver {
  private final Map<URI, FileSystem> entries = new LinkedHashMap<>();

  @Override
  public MountTable load(URI entry, Configuration conf) throws IOException {
    List<String> partitions = partitions(conf);
    MountTable table;
    try {
      table = store(conf).latest(entry(entry, conf)).orElseGet(() -> defaultTable(conf));
    } catch (IOException e) {
      throw new IOException("cannot read the mount table from entry node " + entry + ": "
          + e.getMessage(), e);
    }
    for (String partition : table.partitions()) {
      if (!partitions.contains(partition)) {
        throw new IOException("the mount table (version " + table.version() + ", from "
            + entry + ") names partition " + partition + ", which is not in dfs.nameservices ("
            + String.join(",", partitions) + ")");
      }
    }
    return table;
  }

  /** @return the newest stored version's number, from the file names; 0 (the default's) if none */
  @Override
  public int version(URI entry, Configuration conf) throws IOException {
    try {
      return store(conf).latestVersion(entry(entry, conf)).orElse(0);
    } catch (IOException e) {
      throw new IOException("cannot read the mount table's version from entry node " + entry
          + ": " + e.getMessage(), e);
    }
  }

  private synchronized FileSystem entry(URI entry, Configuration conf) throws IOException {
    FileSystem fs = entries.get(entry);
    if (fs == null) {
      fs = FileSystem.newInstance(entry, conf);
      entries.put(entry, fs);
    }
    return fs;
  }

  @Override
  public synchronized void close() throws IOException {
    IOException first = null;
    for (FileSystem fs : entries.values()) {
      try {
        fs.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    entries.clear();
    if (first != null) {
      throw first;
    }
  }

  /** @return the store at {@code locus.ndcoupling.mount.dir} */
  public static MountTableStore store(Configuration conf) {
    return new MountTableStore(conf.getTrimmed(NdCouplingConfigKeys.MOUNT_DIR,
        NdCouplingConfigKeys.MOUNT_DIR_DEFAULT));
  }

  /**
   * @return the partitions of the coupled namespace, in order ({@code dfs.nameservices})
   * @throws IOException when the configuration names none
   */
  public static List<String> partitions(Configuration conf) throws IOException {
    List<String> partitions = new ArrayList<>(conf.getTrimmedStringCollection(
        "dfs.nameservices"));
    if (partitions.isEmpty()) {
      throw new IOException("no partitions: a locus:// file system needs the coupled"
          + " namespace's nameservices in dfs.nameservices (the cluster's site files have them)");
    }
    return partitions;
  }

  /** @return the table a namespace has before an operator stores one */
  public static MountTable defaultTable(Configuration conf) {
    List<String> dirs = new ArrayList<>(conf.getTrimmedStringCollection(
        NdCouplingConfigKeys.MOUNT_DEFAULT_DIRS));
    if (conf.get(NdCouplingConfigKeys.MOUNT_DEFAULT_DIRS) == null) {
      dirs = List.of(NdCouplingConfigKeys.MOUNT_DEFAULT_DIRS_DEFAULT.split(","));
    }
    try {
      return MountTable.defaultFor(partitions(conf), dirs);
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }
}
