package org.locus.cli.hadoop;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.locus.ndcoupling.client.PartitionedFsck;

/**
 * {@code locus fsck}: Hadoop's {@code DFSck} ({@code hdfs fsck}) against a Locus cluster; on a
 * coupled namespace a directory above mount points ({@code /}) is checked on every partition.
 */
public final class FsckCommand extends HadoopToolCommand {
  public FsckCommand() {
    super("locus fsck");
  }

  @Override
  public String name() {
    return "fsck";
  }

  @Override
  public String summary() {
    return "Hadoop's file system checker (as 'hdfs fsck'): block health and locations";
  }

  @Override
  protected Tool createTool(Configuration conf) throws java.io.IOException {
    return new PartitionedFsck(conf, System.out);
  }

  @Override
  protected String example() {
    return "/ -files -blocks -locations";
  }
}
