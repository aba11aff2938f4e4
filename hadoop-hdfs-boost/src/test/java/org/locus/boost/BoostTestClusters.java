package org.locus.boost;

import java.io.File;
import java.io.IOException;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.kit.LocusMiniCluster;

/** The embedded clusters of the BoostDFS tests: 4 nodes, each with a DISK and an NVDIMM volume. */
public final class BoostTestClusters {
  static final int BLOCK = 262_144;

  private BoostTestClusters() {
  }

  /** @return the keys of conf/features/boost.xml, as docs/boost.md tells users to apply them */
  public static Configuration featureKeys() {
    return LocusMiniCluster.featureKeys("boost");
  }


  static LocusMiniCluster.Builder fourNodes(String name) {
    return LocusMiniCluster.builder(new File("target/test-clusters/" + name))
        .nodes(4)
        .volumes(StorageType.DISK, StorageType.NVDIMM)
        .set("dfs.blocksize", Integer.toString(BLOCK))
        .set("dfs.replication", "2");
  }

  /** Writes {@code bytes} random bytes from {@code seed} to {@code file}; returns them. */
  static byte[] writeRandom(DistributedFileSystem fs, Path file, int bytes, long seed)
      throws IOException {
    byte[] data = new byte[bytes];
    new Random(seed).nextBytes(data);
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(data);
    }
    return data;
  }

  /** Creates {@code path} and tags it SUPERLOCAL with 3 copies; returns it. */
  static Path taggedDirectory(DistributedFileSystem fs, SuperlocalPaths paths, String path)
      throws IOException {
    Path dir = new Path(path);
    fs.mkdirs(dir);
    paths.tag(dir, 3);
    return dir;
  }

  static void write(DistributedFileSystem fs, Path file, int blocks) throws IOException {
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(new byte[blocks * BLOCK]);
    }
  }
}
