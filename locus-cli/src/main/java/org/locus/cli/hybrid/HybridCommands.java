package org.locus.cli.hybrid;

import java.io.IOException;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.cli.Command;
import org.locus.cli.CommandGroup;
import org.locus.cli.LocusException;
import org.locus.hybrid.HybridSettings;

/** {@code locus hybrid}: the HDD/SSD hybrid profile (seed 000 §2.3.3). */
public final class HybridCommands {
  private HybridCommands() {
  }

  public static Command group() {
    return new CommandGroup("hybrid", "locus hybrid",
        "HDD/SSD hybrid profile: input and output on SSD, intermediate data on HDD",
        List.of(new HybridApplyCommand(), new HybridCheckCommand()));
  }

  /** @return the profile's keys from the cluster's configuration, or a clear error */
  static HybridSettings settings(Configuration conf) throws LocusException {
    try {
      return HybridSettings.from(conf);
    } catch (IllegalArgumentException e) {
      throw new LocusException(e.getMessage());
    }
  }

  static DistributedFileSystem hdfs(Configuration conf) throws IOException, LocusException {
    FileSystem fs = FileSystem.newInstance(conf);
    if (!(fs instanceof DistributedFileSystem dfs)) {
      fs.close();
      throw new LocusException("the cluster's file system is " + fs.getUri()
          + ", not HDFS; the hybrid profile places blocks on DataNode volumes");
    }
    return dfs;
  }
}
