package org.locus.energy.namenode;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The DataNodes' lists of spinning backups under {@code locus.energy.awake.dir}, as last read.
 * A list is read again only when its modification time or length changed, so a quiet cluster
 * costs the NameNode one directory listing per poll and no block read: the drain predictor counts
 * every byte a DataNode serves, and a poll that read every list each second would look like a
 * reader draining primaries. Hidden files (a list being written) are skipped.
 */
final class AwakeLists {
  private record Seen(long modified, long length, Set<String> storageIds) {
  }

  private final Map<Path, Seen> seen = new HashMap<>();

  /** @return the union of the storage IDs the directory's lists hold now */
  Set<String> read(FileSystem fs, Path dir) throws IOException {
    FileStatus[] lists;
    try {
      lists = fs.listStatus(dir);
    } catch (FileNotFoundException e) {
      lists = new FileStatus[0];
    }
    Map<Path, Seen> now = new HashMap<>();
    for (FileStatus list : lists) {
      if (!list.isFile() || list.getPath().getName().startsWith(".")) {
        continue;
      }
      Seen before = seen.get(list.getPath());
      if (before != null && before.modified() == list.getModificationTime()
          && before.length() == list.getLen()) {
        now.put(list.getPath(), before);
        continue;
      }
      try {
        now.put(list.getPath(), new Seen(list.getModificationTime(), list.getLen(),
            storageIds(fs, list.getPath())));
      } catch (FileNotFoundException e) {
        // removed by its DataNode since the listing: none of its backups spins
      }
    }
    seen.clear();
    seen.putAll(now);
    Set<String> awake = new TreeSet<>();
    for (Seen list : now.values()) {
      awake.addAll(list.storageIds());
    }
    return awake;
  }

  private static Set<String> storageIds(FileSystem fs, Path list) throws IOException {
    Set<String> ids = new TreeSet<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(list),
        StandardCharsets.UTF_8))) {
      in.lines().map(String::trim).filter(l -> !l.isEmpty()).forEach(ids::add);
    }
    return ids;
  }
}
