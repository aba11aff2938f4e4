package org.locus.kit;

import java.io.File;

import org.apache.hadoop.fs.StorageType;

/**
 * One DataNode volume of an embedded cluster: its storage type and its directory.
 *
 * @param type storage type the volume is tagged with in {@code dfs.datanode.data.dir}
 * @param dir the volume's directory on the local file system
 */
public record ClusterVolume(StorageType type, File dir) {
  @Override
  public String toString() {
    return "[" + type + "]" + dir;
  }
}
