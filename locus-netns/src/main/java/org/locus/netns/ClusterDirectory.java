package org.locus.netns;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * The directory a background cluster ({@code locus cluster up --dir DIR}, embedded or netns)
 * lives in:
 *
 * <pre>
 *   DIR/cluster.lock   held (exclusive file lock) by the cluster process while it runs
 *   DIR/cluster.pid    pid of the cluster process
 *   DIR/cluster.state  properties: state=starting|up|down, nodes, addresses, features
 *   DIR/conf/          core-site.xml, hdfs-site.xml, yarn-site.xml, mapred-site.xml for clients
 *   DIR/logs/          cluster.log
 *   DIR/data/          NameNode, DataNode and YARN working directories
 * </pre>
 *
 * The lock, not the pid file, says whether a cluster is live: it goes away with the process
 * however the process ends.
 */
public final class ClusterDirectory {
  private final File root;

  /**
   * @throws IllegalArgumentException if the path holds a comma: the cluster's data directories
   *     go into Hadoop's comma-separated directory keys ({@code dfs.datanode.data.dir} and
   *     others), where a comma would split one path in two
   */
  public ClusterDirectory(File root) {
    this.root = root.getAbsoluteFile();
    if (this.root.getPath().contains(",")) {
      throw new IllegalArgumentException("cluster directory " + this.root + " contains ',':"
          + " Hadoop reads its directory keys as comma-separated lists; choose a path without"
          + " commas");
    }
  }

  public File root() {
    return root;
  }

  public File confDir() {
    return new File(root, "conf");
  }

  public File logFile() {
    return new File(root, "logs/cluster.log");
  }

  public File dataDir() {
    return new File(root, "data");
  }

  public File lockFile() {
    return new File(root, "cluster.lock");
  }

  public File pidFile() {
    return new File(root, "cluster.pid");
  }

  public File stateFile() {
    return new File(root, "cluster.state");
  }

  /** @return whether some process holds this directory's cluster lock */
  public boolean isLive() throws IOException {
    if (!lockFile().isFile()) {
      return false;
    }
    try (RandomAccessFile file = new RandomAccessFile(lockFile(), "rw");
         FileChannel channel = file.getChannel()) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return true;
      }
      lock.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    }
  }

  /**
   * Takes the cluster lock for the life of the calling process.
   *
   * @return the lock, or empty when another process holds it
   */
  public Optional<FileLock> acquire() throws IOException {
    FileChannel channel = new RandomAccessFile(lockFile(), "rw").getChannel();
    FileLock lock = channel.tryLock();
    if (lock == null) {
      channel.close();
    }
    return Optional.ofNullable(lock);
  }

  public Optional<Long> pid() throws IOException {
    if (!pidFile().isFile()) {
      return Optional.empty();
    }
    String text = Files.readString(pidFile().toPath()).trim();
    try {
      return Optional.of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      throw new IOException("pid file " + pidFile() + " holds '" + text + "', not a pid");
    }
  }

  public void writePid(long pid) throws IOException {
    writeAtomically(pidFile(), (pid + "\n").getBytes(StandardCharsets.UTF_8));
  }

  public Properties readState() throws IOException {
    Properties state = new Properties();
    if (stateFile().isFile()) {
      try (InputStream in = new FileInputStream(stateFile())) {
        state.load(in);
      }
    }
    return state;
  }

  public void writeState(Properties state) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    state.store(bytes, "Locus cluster state (embedded or netns: see kind)");
    writeAtomically(stateFile(), bytes.toByteArray());
  }

  private static void writeAtomically(File target, byte[] content) throws IOException {
    File tmp = new File(target.getPath() + ".tmp");
    try (OutputStream out = new FileOutputStream(tmp)) {
      out.write(content);
    }
    try {
      Files.move(tmp.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
