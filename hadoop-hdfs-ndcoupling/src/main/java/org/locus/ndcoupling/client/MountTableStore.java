package org.locus.ndcoupling.client;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * Where the mount table lives: a copy in every partition, so whichever node a client names as
 * its entry point serves the table itself (the metadata of the namespace replicated with it, no
 * node a single source). Each version is one file in the partition's mount directory
 * ({@code locus.ndcoupling.mount.dir}, default {@code /.locus/mounts}):
 *
 * <pre>
 *   mount-table.&lt;version&gt;        the text form of {@link MountTable}, version inside equal
 *   mount-table.&lt;version&gt;.tmp    a write in progress, ignored by readers
 * </pre>
 *
 * <p>A reader takes the highest version. A writer writes the next version into every partition
 * (a temporary file renamed into place, which fails if another writer got there first); if any
 * partition fails, the copies already placed are deleted again, so either every partition serves
 * the new version or none does.
 */
public final class MountTableStore {
  private static final Pattern VERSION_FILE = Pattern.compile("mount-table\\.([0-9]{1,9})");

  private final Path dir;

  /** @param dir the mount directory inside every partition */
  public MountTableStore(String dir) {
    MountTable.checkPath(dir, NdCouplingConfigKeys.MOUNT_DIR);
    if (dir.equals("/")) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.MOUNT_DIR
          + " must be a directory below /, not /");
    }
    this.dir = new Path(dir);
  }

  /** @return the file of {@code version} inside a partition */
  public Path file(int version) {
    return new Path(dir, "mount-table." + version);
  }

  /** @return every stored version in {@code partition}, ascending (empty if none) */
  public List<Integer> versions(FileSystem partition) throws IOException {
    List<Integer> versions = new ArrayList<>();
    FileStatus[] files;
    try {
      files = partition.listStatus(dir);
    } catch (FileNotFoundException e) {
      return versions;
    }
    for (FileStatus file : files) {
      Matcher m = VERSION_FILE.matcher(file.getPath().getName());
      if (file.isFile() && m.matches()) {
        versions.add(Integer.parseInt(m.group(1)));
      }
    }
    versions.sort(null);
    return versions;
  }

  /**
   * @return the number of the highest stored version in {@code partition}, read from the file
   *     names alone (one listing), or empty when none is stored
   */
  public OptionalInt latestVersion(FileSystem partition) throws IOException {
    List<Integer> versions = versions(partition);
    return versions.isEmpty() ? OptionalInt.empty()
        : OptionalInt.of(versions.get(versions.size() - 1));
  }

  /**
   * @return the highest stored version in {@code partition}, or empty when none is stored
   * @throws IOException naming the file when it does not parse or its version is not its name's
   */
  public Optional<MountTable> latest(FileSystem partition) throws IOException {
    OptionalInt latest = latestVersion(partition);
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    int version = latest.getAsInt();
    Path file = file(version);
    String source = partition.makeQualified(file).toString();
    String text;
    try (InputStream in = partition.open(file)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    MountTable table;
    try {
      table = MountTable.parse(text, source);
    } catch (IllegalArgumentException e) {
      throw new IOException("damaged mount table: " + e.getMessage(), e);
    }
    if (table.version() != version) {
      throw new IOException("damaged mount table: " + source + " says version "
          + table.version() + ", its name " + version);
    }
    return Optional.of(table);
  }

  /**
   * Stores {@code table} as its version in every partition of {@code partitions}, all or none.
   *
   * @param partitions partition name to a file system of that partition
   * @throws IOException naming the partition that failed; no partition keeps the new version
   */
  public void publish(MountTable table, Map<String, FileSystem> partitions) throws IOException {
    byte[] bytes = table.format().getBytes(StandardCharsets.UTF_8);
    Path target = file(table.version());
    Path tmp = new Path(dir, target.getName() + ".tmp");
    Map<String, FileSystem> placed = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, FileSystem> partition : partitions.entrySet()) {
        FileSystem fs = partition.getValue();
        fs.mkdirs(dir);
        try (OutputStream out = fs.create(tmp, true)) {
          out.write(bytes);
        }
        if (!fs.rename(tmp, target)) {
          fs.delete(tmp, false);
          throw new IOException("partition " + partition.getKey() + " already has "
              + fs.makeQualified(target) + " (another change was published at the same time;"
              + " list the table and try again)");
        }
        placed.put(partition.getKey(), fs);
      }
    } catch (IOException e) {
      List<String> notUndone = new ArrayList<>();
      for (Map.Entry<String, FileSystem> done : placed.entrySet()) {
        try {
          done.getValue().delete(target, false);
        } catch (IOException undo) {
          notUndone.add(done.getKey() + " (" + undo.getMessage() + ")");
        }
      }
      throw new IOException("mount table version " + table.version() + " not published: "
          + e.getMessage() + (notUndone.isEmpty() ? "; no partition changed"
          : "; could not take it back from " + String.join(", ", notUndone)
          + ": publish a later version to make the partitions agree"), e);
    }
  }
}
