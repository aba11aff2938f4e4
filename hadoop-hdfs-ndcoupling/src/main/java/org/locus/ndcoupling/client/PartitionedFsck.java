package org.locus.ndcoupling.client;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code hdfs fsck} over the coupled namespace. A path inside a mount point is Hadoop's own
 * {@link DFSck} (ViewFs resolves it to the owning partition's NameNode). A directory of the view
 * itself ({@code /}, or one above mount points), which no NameNode serves, is checked on every
 * partition that holds it, one {@code DFSck} each, under a {@code partition nsK} header; the
 * exit code is the worst of them.
 */
public class PartitionedFsck extends Configured implements Tool {
  private final PrintStream out;

  public PartitionedFsck(Configuration conf, PrintStream out) {
    super(conf);
    this.out = out;
  }

  @Override
  public int run(String[] args) throws Exception {
    int pathIndex = pathIndex(args);
    String path = pathIndex < 0 ? "/" : args[pathIndex];
    FileSystem fs = new Path(path).getFileSystem(getConf());
    if (!(fs instanceof LocusFileSystem locus)) {
      return ToolRunner.run(new DFSck(getConf(), out), args);
    }
    String viewPath = fs.makeQualified(new Path(path)).toUri().getPath();
    MountTable table = locus.mountTable();
    if (table.mountPointsBelow(viewPath).isEmpty()) {
      return ToolRunner.run(new DFSck(getConf(), out), args);
    }
    int worst = 0;
    for (String partition : StoredMountTableResolver.partitions(getConf())) {
      Path onPartition = new Path("hdfs://" + partition + viewPath);
      if (!onPartition.getFileSystem(getConf()).exists(onPartition)) {
        continue;
      }
      List<String> partitionArgs = new ArrayList<>(Arrays.asList(args));
      if (pathIndex < 0) {
        partitionArgs.add(onPartition.toString());
      } else {
        partitionArgs.set(pathIndex, onPartition.toString());
      }
      out.println("partition " + partition + ": " + onPartition);
      worst = Math.max(worst, ToolRunner.run(new DFSck(getConf(), out),
          partitionArgs.toArray(new String[0])));
    }
    return worst;
  }

  /** @return the index of the path among DFSck's arguments, or -1 when none is given */
  private static int pathIndex(String[] args) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("-blockId")) {
        return -1; // block ids follow, not a path
      }
      if (!args[i].startsWith("-")) {
        return i;
      }
    }
    return -1;
  }
}
