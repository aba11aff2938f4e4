package org.locus.ndcoupling.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.viewfs.FsGetter;

/**
 * The partitions' own file systems ({@code hdfs://nsK}) behind one {@link LocusFileSystem},
 * shared by every view it builds from a version of the mount table ({@link MountTableView}
 * asks here instead of ViewFileSystem's per-instance cache). So a view built after a change
 * reuses the clients the old one opened: a stream opened through the old view keeps writing,
 * and dropping the old view leaves nothing open. One client per scheme and authority, made with
 * {@link FileSystem#newInstance} on first use (as ViewFileSystem's own cache does), all closed
 * with the LocusFileSystem. A {@code fatbtree.client.FatBtreeFileSystem} keeps its partitions'
 * clients here the same way.
 */
public final class PartitionFileSystems extends FsGetter implements Closeable {
  private final Map<String, FileSystem> open = new LinkedHashMap<>();
  private boolean closed;

  /** @return this LocusFileSystem's client of {@code uri}'s file system (its path ignored) */
  @Override
  public synchronized FileSystem get(URI uri, Configuration conf) throws IOException {
    if (closed) {
      throw new IOException("Filesystem closed: the locus:// file system that reached " + uri
          + " through this client was closed");
    }
    String key = (uri.getScheme() + "://" + uri.getAuthority()).toLowerCase(Locale.ROOT);
    FileSystem fs = open.get(key);
    if (fs == null) {
      fs = FileSystem.newInstance(uri, conf);
      open.put(key, fs);
    }
    return fs;
  }

  /** @return the clients opened so far, in the order they were opened */
  public synchronized List<FileSystem> opened() {
    return new ArrayList<>(open.values());
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    IOException first = null;
    for (FileSystem fs : open.values()) {
      try {
        fs.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    open.clear();
    if (first != null) {
      throw first;
    }
  }
}
