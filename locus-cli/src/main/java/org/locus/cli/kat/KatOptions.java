package org.locus.cli.kat;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.UsageException;
import org.locus.kat.hint.KeyHint;
import org.locus.kat.hint.KeyHints;

/** What the {@code locus kat} commands make of their shared options. */
final class KatOptions {
  private KatOptions() {
  }

  /** @throws UsageException naming what is wrong with {@code --extractor SPEC} */
  static KeyHint hint(String spec) throws UsageException {
    try {
      return KeyHints.parse(spec, new Configuration());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** @throws LocusException if the cluster's file system is not HDFS */
  static DistributedFileSystem hdfs(Configuration conf) throws IOException, LocusException {
    FileSystem fs = FileSystem.get(conf);
    if (!(fs instanceof DistributedFileSystem dfs)) {
      throw new LocusException("the cluster's file system is " + fs.getUri()
          + ", not HDFS; KAT places blocks on DataNodes");
    }
    return dfs;
  }
}
