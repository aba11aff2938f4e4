package org.locus.kat.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.CombineTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.locus.kat.placement.OwnerPaths;

/**
 * Text input over a KAT dataset whose splits run on their owner: the bucket files under
 * {@code owner=HOST} are packed into splits of at most the block size that name HOST as their
 * only location. Naming only the owner keeps the scheduler from running a map on another replica
 * holder, where its output would then have to cross hosts to the aligned reducer.
 */
public class OwnerLocalInputFormat extends CombineTextInputFormat {

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Map<String, List<FileStatus>> filesOfOwner = new TreeMap<>();
    for (Path dir : FileInputFormat.getInputPaths(job)) {
      FileSystem fs = dir.getFileSystem(job.getConfiguration());
      collect(fs, fs.getFileStatus(dir), filesOfOwner);
    }
    long maxSplit = job.getConfiguration().getLong("dfs.blocksize", 128L << 20);
    List<InputSplit> splits = new ArrayList<>();
    for (Map.Entry<String, List<FileStatus>> e : filesOfOwner.entrySet()) {
      List<Path> paths = new ArrayList<>();
      List<Long> lengths = new ArrayList<>();
      long size = 0;
      for (FileStatus file : e.getValue()) {
        if (size > 0 && size + file.getLen() > maxSplit) {
          splits.add(split(paths, lengths, e.getKey()));
          paths.clear();
          lengths.clear();
          size = 0;
        }
        paths.add(file.getPath());
        lengths.add(file.getLen());
        size += file.getLen();
      }
      if (!paths.isEmpty()) {
        splits.add(split(paths, lengths, e.getKey()));
      }
    }
    return splits;
  }

  private static void collect(FileSystem fs, FileStatus status,
      Map<String, List<FileStatus>> filesOfOwner) throws IOException {
    String name = status.getPath().getName();
    if (name.startsWith("_") || name.startsWith(".")) {
      return;
    }
    if (status.isDirectory()) {
      for (FileStatus child : fs.listStatus(status.getPath())) {
        collect(fs, child, filesOfOwner);
      }
      return;
    }
    if (status.getLen() == 0) {
      return;
    }
    Optional<String> owner = OwnerPaths.ownerOf(status.getPath().toUri().getPath());
    if (owner.isEmpty()) {
      throw new IOException(status.getPath() + " lies in no owner=HOST directory; is the input"
          + " a KAT dataset written by 'locus kat import'?");
    }
    filesOfOwner.computeIfAbsent(owner.get(), h -> new ArrayList<>()).add(status);
  }

  private static CombineFileSplit split(List<Path> paths, List<Long> lengths, String owner) {
    long[] starts = new long[paths.size()];
    long[] lens = lengths.stream().mapToLong(Long::longValue).toArray();
    return new CombineFileSplit(paths.toArray(new Path[0]), starts, lens,
        new String[] {owner});
  }
}
