package org.locus.boost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.boost.placement.SuperlocalLayout;

/**
 * Tags paths SUPERLOCAL and reads back where their copies are.
 *
 * <p>A path is SUPERLOCAL when its storage policy is the tag policy
 * ({@link BoostConfigKeys#SUPERLOCAL_POLICY}); the NameNode hands that policy to every placement
 * decision for the path's blocks, so the placement policy needs no lookup of its own. The total
 * copies asked for are kept in the extended attribute {@link #COPIES_XATTR}, and
 * every file under the path gets HDFS replication copies − 1 (one replica counts twice).
 */
public final class SuperlocalPaths {
  /** Extended attribute that records the total copies asked for by {@link #tag}. */
  public static final String COPIES_XATTR = "user.locus.boost.copies";

  private final DistributedFileSystem fs;
  private final SuperlocalLayout layout;

  public SuperlocalPaths(DistributedFileSystem fs, SuperlocalLayout layout) {
    this.fs = fs;
    this.layout = layout;
  }

  /**
   * Tags {@code path} (a file or a directory) and sets the replication of the files under it.
   *
   * @return the files whose replication was set
   */
  public List<Path> tag(Path path, int copies) throws IOException {
    short replication = layout.replicationFor(copies);
    fs.setStoragePolicy(path, layout.tagPolicyName());
    fs.setXAttr(path, COPIES_XATTR,
        Integer.toString(copies).getBytes(StandardCharsets.UTF_8));
    List<Path> files = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(path, true);
    while (it.hasNext()) {
      Path file = it.next().getPath();
      fs.setReplication(file, replication);
      files.add(file);
    }
    return files;
  }

  /** @return the total copies recorded on {@code path}, or 0 if it was never tagged */
  public int recordedCopies(Path path) throws IOException {
    byte[] value = fs.getXAttrs(path).get(COPIES_XATTR);
    return value == null ? 0 : Integer.parseInt(new String(value, StandardCharsets.UTF_8));
  }

  /** @return whether {@code path}'s effective storage policy is the SUPERLOCAL tag */
  public boolean isTagged(Path path) throws IOException {
    return layout.tagPolicyName().equalsIgnoreCase(fs.getStoragePolicy(path).getName());
  }

  /** @return the copies of every block of every file under {@code path}, in file order */
  public List<BlockCopies> blocks(Path path) throws IOException {
    List<BlockCopies> blocks = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(path, true);
    while (it.hasNext()) {
      FileStatus file = it.next();
      BlockLocation[] locations = fs.getFileBlockLocations(file, 0, file.getLen());
      for (int i = 0; i < locations.length; i++) {
        BlockLocation location = locations[i];
        List<BlockCopies.Replica> replicas = new ArrayList<>();
        String[] hosts = location.getHosts();
        StorageType[] types = location.getStorageTypes();
        for (int j = 0; j < hosts.length; j++) {
          StorageType type = j < types.length ? types[j] : StorageType.DEFAULT;
          replicas.add(new BlockCopies.Replica(hosts[j], type,
              type == layout.replicatedType() ? layout.replicatedCopies() : 1));
        }
        blocks.add(new BlockCopies(file.getPath(), i, location.getOffset(), replicas));
      }
    }
    return blocks;
  }
}
