package org.locus.energy.datanode;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.locus.energy.disk.DiskPowerState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DataNode's half of the fast node (seed 000 §4.3.1, wake reason 2): tells the NameNode
 * which of this node's backup volumes are spinning, so that its readers on this node may read
 * them ({@code PrimaryFirstNetworkTopology}). The list is the HDFS file
 * {@code <locus.energy.awake.dir>/<host>}, one storage ID per line, rewritten when the set
 * changes and removed when no backup spins; the first check after start always writes, so a list
 * left by an earlier run of this node is replaced. A backup that stops spinning leaves the list
 * in the same tick (a listed backup in standby would draw readers that wake it); one that starts
 * spinning joins it at the next check, at most once a second. Like the wake requests, the
 * directory is {@code HOT}: writing the list wakes no backup.
 *
 * <p>A backup counts as awake while it spins with nothing to wait for ({@code ACTIVE},
 * {@code IDLE}); one spinning up or in standby does not. Called from the power manager's one
 * thread.
 */
final class AwakeBackupsAnnouncer {
  private static final Logger LOG = LoggerFactory.getLogger(AwakeBackupsAnnouncer.class);

  /** Block size of a list: the NameNode's least ({@code dfs.namenode.fs-limits.min-block-size}). */
  static final long LIST_BLOCK_BYTES = 1L << 20;

  private final Configuration conf;
  private final Path dir;
  private Set<String> published;
  private boolean lastPublishSucceeded;
  private long nextCheck;
  private FileSystem fs;

  AwakeBackupsAnnouncer(Configuration conf, String awakeDir) {
    this.conf = conf;
    this.dir = new Path(awakeDir);
  }

  /** Publishes the spinning backups among {@code disks} if they changed since the last time. */
  void poll(long now, Collection<BackupDisk> disks, String host) {
    Set<String> awake = awake(disks);
    if (awake.equals(published)) {
      return;
    }
    if (now < nextCheck && !(lastPublishSucceeded && withdraws(awake))) {
      return;
    }
    nextCheck = now + 1000;
    try {
      publish(client(), new Path(dir, host), awake);
      LOG.info("Backups spinning on {}: {}", host, awake.isEmpty() ? "none" : awake);
      published = awake;
      lastPublishSucceeded = true;
    } catch (IOException e) {
      // tried again at the next check, not every tick: published still differs
      lastPublishSucceeded = false;
      LOG.warn("Cannot publish the spinning backups of {} in {}: {}", host, dir, e.toString());
    }
  }

  /** @return whether {@code awake} leaves out a backup the published list names */
  private boolean withdraws(Set<String> awake) {
    return published != null && !awake.containsAll(published);
  }

  /** @return the storage IDs of the backups among {@code disks} spinning and ready */
  static Set<String> awake(Collection<BackupDisk> disks) {
    Set<String> awake = new TreeSet<>();
    for (BackupDisk disk : disks) {
      DiskPowerState state = disk.state();
      if (disk.backup() && disk.storageId() != null
          && (state == DiskPowerState.ACTIVE || state == DiskPowerState.IDLE)) {
        awake.add(disk.storageId());
      }
    }
    return awake;
  }

  private void publish(FileSystem fs, Path list, Set<String> awake) throws IOException {
    if (awake.isEmpty()) {
      fs.delete(list, false);
      return;
    }
    if (!fs.exists(dir)) {
      fs.mkdirs(dir);
      fs.setStoragePolicy(dir, "HOT");
    }
    Path partial = new Path(dir, "." + list.getName() + ".partial");
    // a small block: the NameNode reserves a whole block on each target while it is written
    try (Writer out = new OutputStreamWriter(fs.create(partial, true, 4096,
        fs.getDefaultReplication(partial), LIST_BLOCK_BYTES), StandardCharsets.UTF_8)) {
      for (String id : awake) {
        out.write(id + "\n");
      }
    }
    // one atomic rename over the old list: a reader sees the old list or the new one
    FileContext.getFileContext(fs.getUri(), conf).rename(partial, list,
        Options.Rename.OVERWRITE);
  }

  private FileSystem client() throws IOException {
    if (fs == null) {
      fs = FileSystem.newInstance(FileSystem.getDefaultUri(conf), conf);
    }
    return fs;
  }

  void close() {
    if (fs != null) {
      try {
        fs.close();
      } catch (IOException e) {
        LOG.debug("Closing the awake-backups client: {}", e.getMessage());
      }
    }
  }
}
