package org.locus.energy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * Keeps short-lived files off the backup disks: with the feature on, the cluster-wide default
 * policy is WARM (one primary, the rest backups), so every job's staging files (job jar, splits,
 * history) would be written to the backups at submission and spin them up. Scratch space gets
 * the HOT policy (every replica on primary volumes) instead; data sets and job output stay WARM.
 * Run once after formatting, like {@code hdfs storagepolicies -setStoragePolicy -path /tmp
 * -policy HOT} (see docs/energy.md).
 */
public final class HotScratchSpace {
  private HotScratchSpace() {
  }

  /** @return the scratch directories: {@code /tmp} and the MapReduce staging directory */
  public static List<Path> directories(Configuration conf) {
    List<Path> dirs = new ArrayList<>();
    dirs.add(new Path("/tmp"));
    Path staging = new Path(conf.get("yarn.app.mapreduce.am.staging-dir",
        "/tmp/hadoop-yarn/staging"));
    if (!staging.toUri().getPath().startsWith("/tmp/")) {
      dirs.add(staging);
    }
    return dirs;
  }

  /** Creates the scratch directories if needed and sets their storage policy to HOT. */
  public static void apply(DistributedFileSystem fs, Configuration conf) throws IOException {
    for (Path dir : directories(conf)) {
      if (!fs.exists(dir)) {
        fs.mkdirs(dir);
        if ("/tmp".equals(dir.toUri().getPath())) {
          fs.setPermission(dir, new FsPermission((short) 01777));
        }
      }
      fs.setStoragePolicy(dir, HdfsConstants.HOT_STORAGE_POLICY_NAME);
    }
  }
}
