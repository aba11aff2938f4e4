package org.locus.boost;

import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;

/**
 * Where one block's copies are: its HDFS replicas, each with the copies it stands for (2 on a
 * REPLICATED volume, 1 elsewhere).
 *
 * @param file the file
 * @param index the block's index in the file
 * @param offset the block's first byte in the file
 * @param replicas the HDFS replicas
 */
public record BlockCopies(Path file, int index, long offset, List<Replica> replicas) {

  /**
   * @param host the DataNode's host name
   * @param type the storage type of the volume holding it
   * @param copies copies this replica stands for
   */
  public record Replica(String host, StorageType type, int copies) {
  }

  /** @return copies in all, the intra-node mirror included */
  public int copies() {
    return replicas.stream().mapToInt(Replica::copies).sum();
  }

  /** @return HDFS replicas on REPLICATED storage (superlocal hosts) */
  public long superlocalReplicas() {
    return replicas.stream().filter(r -> r.copies() > 1).count();
  }

  /** @return distinct hosts holding a copy */
  public long hosts() {
    return replicas.stream().map(Replica::host).distinct().count();
  }
}
