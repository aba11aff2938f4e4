package org.locus.cli.hadoop;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.Tool;

/** {@code locus fs}: Hadoop's {@code FsShell} ({@code hadoop fs}) against a Locus cluster. */
public final class FsCommand extends HadoopToolCommand {
  public FsCommand() {
    super("locus fs");
  }

  @Override
  public String name() {
    return "fs";
  }

  @Override
  public String summary() {
    return "Hadoop's file system shell (as 'hadoop fs'): -ls, -put, -cat, ...";
  }

  @Override
  protected Tool createTool(Configuration conf) {
    return new FsShell(conf);
  }

  @Override
  protected String example() {
    return "-put notes.txt /notes.txt";
  }
}
