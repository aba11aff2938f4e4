package org.locus.ndcoupling.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An operator's changes to the mount table ({@code locus mount}): each change is the next
 * version, published to every partition at once ({@link MountTableStore#publish}), after the
 * checks that keep data reachable. Clients created afterwards see it, running ones within
 * {@code locus.ndcoupling.mount.refresh-interval}; no daemon restarts.
 *
 * <p>A mount point's directory is created on its partition with the change, so every mount
 * point is a directory (a listing of {@code /} never names a missing one). A change that would
 * hide files (their subtree moving to a partition that does not hold them) is refused unless
 * forced: a mount table moves names, not data.
 */
public final class MountTableAdmin implements Closeable {
  private final Configuration conf;
  private final MountTableStore store;
  private final Map<String, FileSystem> partitions = new LinkedHashMap<>();

  /** Opens a client of every partition of {@code dfs.nameservices}. */
  public MountTableAdmin(Configuration conf) throws IOException {
    this.conf = conf;
    this.store = StoredMountTableResolver.store(conf);
    try {
      for (String ns : StoredMountTableResolver.partitions(conf)) {
        partitions.put(ns, FileSystem.newInstance(URI.create("hdfs://" + ns + "/"), conf));
      }
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  /** @return each partition's newest stored version (empty: none stored there) */
  public Map<String, Optional<Integer>> storedVersions() throws IOException {
    Map<String, Optional<Integer>> versions = new LinkedHashMap<>();
    for (Map.Entry<String, FileSystem> p : partitions.entrySet()) {
      OptionalInt stored = store.latestVersion(p.getValue());
      versions.put(p.getKey(), stored.isEmpty() ? Optional.empty()
          : Optional.of(stored.getAsInt()));
    }
    return versions;
  }

  /** @return the newest table any partition stores, or the default when none does */
  public MountTable current() throws IOException {
    MountTable newest = null;
    for (Map.Entry<String, FileSystem> p : partitions.entrySet()) {
      Optional<MountTable> table = store.latest(p.getValue());
      if (table.isPresent() && (newest == null || table.get().version() > newest.version())) {
        newest = table.get();
      }
    }
    return newest != null ? newest : StoredMountTableResolver.defaultTable(conf);
  }

  /**
   * Stores the default table as version 1 when no partition stores a table, and creates every
   * mount point's directory on its partition.
   *
   * @return the table in force afterwards
   */
  public MountTable initialize() throws IOException {
    MountTable table = current();
    if (table.version() == 0) {
      table = table.withVersion(1);
      createMountDirectories(table);
      store.publish(table, partitions);
    } else {
      createMountDirectories(table);
    }
    return table;
  }

  /**
   * Mounts {@code path} on {@code partition} (a new mount point, or {@code /} moved).
   *
   * @param force mount even if files under {@code path} stay behind on the old owner
   * @return the published table
   */
  public MountTable add(String path, String partition, boolean force) throws IOException {
    requirePartition(partition);
    MountTable table = current();
    MountTable next = table.withMount(path, partition).withVersion(nextVersion(table));
    if (!force && !path.equals("/")) {
      refuseHiding(path, table.partitionOf(path), partition);
    }
    createMountDirectories(next);
    store.publish(next, partitions);
    return next;
  }

  /**
   * Removes the mount point {@code path}; its subtree belongs to the root partition again.
   *
   * @param force remove even if files under {@code path} stay behind on its partition
   * @return the published table
   */
  public MountTable remove(String path, boolean force) throws IOException {
    MountTable table = current();
    MountTable next = table.withoutMount(path).withVersion(nextVersion(table));
    if (!force) {
      refuseHiding(path, table.partitionOf(path), next.partitionOf(path));
    }
    createMountDirectories(next);
    store.publish(next, partitions);
    return next;
  }

  private void requirePartition(String partition) {
    if (!partitions.containsKey(partition)) {
      throw new IllegalArgumentException("unknown partition " + partition + "; the cluster's"
          + " partitions (dfs.nameservices): " + String.join(",", partitions.keySet()));
    }
  }

  /** @return one more than any version any partition stores (so a lagging copy is healed) */
  private int nextVersion(MountTable table) throws IOException {
    int newest = table.version();
    for (Optional<Integer> v : storedVersions().values()) {
      newest = Math.max(newest, v.orElse(0));
    }
    return newest + 1;
  }

  private void refuseHiding(String path, String from, String to) throws IOException {
    if (from.equals(to)) {
      return;
    }
    FileSystem owner = partitions.get(from);
    Path dir = new Path(path);
    if (owner.exists(dir)) {
      FileStatus status = owner.getFileStatus(dir);
      if (!status.isDirectory() || owner.listStatus(dir).length > 0) {
        throw new IllegalArgumentException(path + " holds files on partition " + from
            + ", its owner now; moving it to partition " + to + " would hide them (a mount"
            + " table moves names, not data): copy them over first, or force");
      }
    }
  }

  private void createMountDirectories(MountTable table) throws IOException {
    for (Map.Entry<String, String> mount : table.mounts().entrySet()) {
      partitions.get(mount.getValue()).mkdirs(new Path(mount.getKey()));
    }
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (FileSystem fs : partitions.values()) {
      try {
        fs.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
