package org.locus.ndcoupling.client;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * The mount table as the entry node stores it ({@link MountTableStore}), or, before any version
 * is stored, the default table ({@link MountTable#defaultFor}) computed from the partitions of
 * {@code dfs.nameservices} and {@code locus.ndcoupling.mount.default-dirs}, which every site
 * file of the cluster shares.
 */
public class StoredMountTableResolver implements PartitionResolver {
  @Override
  public MountTable load(URI entry, Configuration conf) throws IOException {
    List<String> partitions = partitions(conf);
    MountTable table;
    try (FileSystem fs = FileSystem.newInstance(entry, conf)) {
      table = store(conf).latest(fs).orElseGet(() -> defaultTable(conf));
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
