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
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.CombineTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.locus.kat.placement.OwnerPaths;

/**
 * Text input over a KAT dataset whose splits run on their owner. Each owner's bucket files under
 * {@code owner=HOST} are read as one stream of bytes and cut into as many splits as whole blocks
 * it holds (rounded, at least one), of equal size, each naming HOST as its only location.
 *
 * <p>Naming only the owner keeps the scheduler from running a map on another replica holder,
 * where its output would then have to cross hosts to the aligned reducer. Equal splits sized by
 * rounding give a job about as many maps as the same bytes in plain files would (one per block):
 * packing whole buckets up to the block size instead left a small remainder split per owner,
 * and on a small cluster each extra map is a task JVM's start-up on a busy core. An
 * uncompressed file may be cut anywhere (the line reader of a split that starts inside a line
 * skips to the next one, and the previous split reads past its end to finish it); a compressed
 * file is never cut.
 */
public class OwnerLocalInputFormat extends CombineTextInputFormat {

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Map<String, List<FileStatus>> filesOfOwner = new TreeMap<>();
    for (Path dir : FileInputFormat.getInputPaths(job)) {
      FileSystem fs = dir.getFileSystem(job.getConfiguration());
      collect(fs, fs.getFileStatus(dir), filesOfOwner);
    }
    long blockSize = job.getConfiguration().getLong("dfs.blocksize", 128L << 20);
    CompressionCodecFactory codecs = new CompressionCodecFactory(job.getConfiguration());
    List<InputSplit> splits = new ArrayList<>();
    for (Map.Entry<String, List<FileStatus>> e : filesOfOwner.entrySet()) {
      splits.addAll(splitsOfOwner(e.getKey(), e.getValue(), blockSize, codecs));
    }
    return splits;
  }

  /** Cuts one owner's files, in order, into equal splits; see the class comment. */
  static List<InputSplit> splitsOfOwner(String owner, List<FileStatus> files, long blockSize,
      CompressionCodecFactory codecs) {
    long total = files.stream().mapToLong(FileStatus::getLen).sum();
    long count = Math.max(1, Math.round(total / (double) blockSize));
    long target = (total + count - 1) / count;
    List<InputSplit> splits = new ArrayList<>();
    SplitBuilder split = new SplitBuilder(owner);
    for (FileStatus file : files) {
      boolean cuttable = codecs.getCodec(file.getPath()) == null;
      long offset = 0;
      while (offset < file.getLen()) {
        // the last split takes whatever is left (a whole compressed file may have overfilled
        // an earlier one); every other one is closed as soon as it reaches the target
        long room = splits.size() < count - 1 ? target - split.size : Long.MAX_VALUE;
        long take = cuttable ? Math.min(room, file.getLen() - offset) : file.getLen();
        split.add(file.getPath(), offset, take);
        offset += take;
        if (split.size >= target && splits.size() < count - 1) {
          splits.add(split.build());
          split = new SplitBuilder(owner);
        }
      }
    }
    if (split.size > 0) {
      splits.add(split.build());
    }
    return splits;
  }

  /** The chunks of one split being filled. */
  private static final class SplitBuilder {
    private final String owner;
    private final List<Path> paths = new ArrayList<>();
    private final List<Long> starts = new ArrayList<>();
    private final List<Long> lengths = new ArrayList<>();
    private long size;

    SplitBuilder(String owner) {
      this.owner = owner;
    }

    void add(Path path, long start, long length) {
      paths.add(path);
      starts.add(start);
      lengths.add(length);
      size += length;
    }

    CombineFileSplit build() {
      return new CombineFileSplit(paths.toArray(new Path[0]),
          starts.stream().mapToLong(Long::longValue).toArray(),
          lengths.stream().mapToLong(Long::longValue).toArray(), new String[] {owner});
    }
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
}
