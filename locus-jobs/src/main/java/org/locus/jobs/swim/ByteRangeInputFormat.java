package org.locus.jobs.swim;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.locus.jobs.puma.InputFiles;

/**
 * Input of a synthetic job: exactly {@value SyntheticJob#INPUT_BYTES} bytes taken from the
 * files of the input directory (a pool of any data), in name order, wrapping around to the
 * first file when the pool is smaller than the target. Splits are byte ranges of at most
 * {@value SyntheticJob#SPLIT_BYTES} bytes, never crossing a file end; each carries its share of
 * the job's shuffle and output bytes. Records are raw chunks of up to 64 KiB.
 */
public class ByteRangeInputFormat extends InputFormat<LongWritable, BytesWritable> {
  static final int CHUNK_BYTES = 64 * 1024;

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    long target = conf.getLong(SyntheticJob.INPUT_BYTES, 0);
    long splitBytes = conf.getLong(SyntheticJob.SPLIT_BYTES, 16L << 20);
    long shuffle = conf.getLong(SyntheticJob.SHUFFLE_BYTES, 0);
    long output = conf.getLong(SyntheticJob.OUTPUT_BYTES, 0);
    List<FileStatus> pool = new ArrayList<>();
    for (Path dir : FileInputFormat.getInputPaths(context)) {
      FileSystem fs = dir.getFileSystem(conf);
      for (FileStatus file : InputFiles.dataFiles(fs, dir)) {
        if (file.getLen() > 0) {
          pool.add(file);
        }
      }
    }
    if (pool.isEmpty()) {
      throw new IOException("the synthetic job's input pool "
          + List.of(FileInputFormat.getInputPaths(context)) + " holds no data; write one with"
          + " 'locus generate text'");
    }
    List<InputSplit> splits = new ArrayList<>();
    long taken = 0;
    for (int f = 0; taken < target; f = (f + 1) % pool.size()) {
      FileStatus file = pool.get(f);
      FileSystem fs = file.getPath().getFileSystem(conf);
      for (long start = 0; start < file.getLen() && taken < target; ) {
        long length = Math.min(Math.min(splitBytes, file.getLen() - start), target - taken);
        BlockLocation[] blocks = fs.getFileBlockLocations(file, start, 1);
        String[] hosts = blocks.length == 0 ? new String[0] : blocks[0].getHosts();
        splits.add(new RangeSplit(file.getPath(), start, length, hosts,
            share(shuffle, taken, length, target), share(output, taken, length, target)));
        taken += length;
        start += length;
      }
    }
    return splits;
  }

  /** The part of {@code total} that belongs to input bytes [from, from + length). */
  private static long share(long total, long from, long length, long target) {
    return Math.round((double) total * (from + length) / target)
        - Math.round((double) total * from / target);
  }

  /** A byte range with the shuffle and output bytes its map task owes. */
  public static class RangeSplit extends FileSplit {
    private long shuffleShare;
    private long outputShare;

    public RangeSplit() {
    }

    RangeSplit(Path file, long start, long length, String[] hosts, long shuffleShare,
        long outputShare) {
      super(file, start, length, hosts);
      this.shuffleShare = shuffleShare;
      this.outputShare = outputShare;
    }

    public long shuffleShare() {
      return shuffleShare;
    }

    public long outputShare() {
      return outputShare;
    }

    @Override
    public void write(DataOutput out) throws IOException {
      super.write(out);
      out.writeLong(shuffleShare);
      out.writeLong(outputShare);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      super.readFields(in);
      shuffleShare = in.readLong();
      outputShare = in.readLong();
    }
  }

  @Override
  public RecordReader<LongWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new ChunkReader();
  }

  /** Reads a range as chunks of up to {@value #CHUNK_BYTES} bytes. */
  static class ChunkReader extends RecordReader<LongWritable, BytesWritable> {
    private FSDataInputStream in;
    private long start;
    private long end;
    private long position;
    private final LongWritable key = new LongWritable();
    private final BytesWritable value = new BytesWritable();
    private final byte[] buffer = new byte[CHUNK_BYTES];

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
      FileSplit range = (FileSplit) split;
      in = range.getPath().getFileSystem(context.getConfiguration()).open(range.getPath());
      start = range.getStart();
      end = start + range.getLength();
      position = start;
      in.seek(start);
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      if (position >= end) {
        return false;
      }
      int length = (int) Math.min(CHUNK_BYTES, end - position);
      in.readFully(buffer, 0, length);
      key.set(position);
      value.set(buffer, 0, length);
      position += length;
      return true;
    }

    @Override
    public LongWritable getCurrentKey() {
      return key;
    }

    @Override
    public BytesWritable getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() {
      return end == start ? 1 : (float) (position - start) / (end - start);
    }

    @Override
    public void close() throws IOException {
      if (in != null) {
        in.close();
      }
    }
  }
}
