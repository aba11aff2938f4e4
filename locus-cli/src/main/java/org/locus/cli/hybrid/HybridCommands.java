package org.locus.cli.hybrid;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Properties;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.cli.command.Command;
import org.locus.cli.command.CommandGroup;
import org.locus.cli.command.LocusException;
import org.locus.hybrid.HybridSettings;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.NodeDeviceWrites;

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

  /** @return the running netns cluster whose directory {@code conf} names, else null */
  static ClusterDirectory runningNetns(String conf) throws IOException {
    if (conf == null) {
      return null;
    }
    ClusterDirectory dir = new ClusterDirectory(new File(conf).getAbsoluteFile());
    Properties state = dir.readState();
    return "netns".equals(state.getProperty("kind")) && "up".equals(state.getProperty("state"))
        ? dir : null;
  }

  /** Where {@code hybrid apply} keeps the device counters it started from. */
  private static File baselineFile(ClusterDirectory dir) {
    return new File(dir.root(), "hybrid-device-writes.properties");
  }

  /** Records the netns cluster's device write counters now, for {@code hybrid check}. */
  static void recordDeviceBaseline(ClusterDirectory dir) throws IOException {
    Properties base = new Properties();
    NodeDeviceWrites.now(dir).forEach((kind, bytes) -> base.setProperty(kind,
        Long.toString(bytes)));
    try (OutputStream out = new FileOutputStream(baselineFile(dir))) {
      base.store(out, "device write counters at 'locus hybrid apply'");
    }
  }

  /** @return the counters {@code hybrid apply} recorded; empty if it recorded none */
  static Properties deviceBaseline(ClusterDirectory dir) throws IOException {
    Properties base = new Properties();
    File file = baselineFile(dir);
    if (file.isFile()) {
      try (InputStream in = new FileInputStream(file)) {
        base.load(in);
      }
    }
    return base;
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
