package org.locus.jobs.generate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Input of a job that generates data instead of reading it: {@value #FILES} splits, split
 * {@code i} holding the single record {@code (i, null)}. Splits have no locations, so the
 * scheduler may run them anywhere.
 */
public class FileIndexInputFormat extends InputFormat<IntWritable, NullWritable> {
  /** Number of splits (files to generate), at least 1. */
  public static final String FILES = "locus.job.generate.files";

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    int files = context.getConfiguration().getInt(FILES, 0);
    if (files < 1) {
      throw new IllegalArgumentException(FILES + " must be at least 1, got " + files);
    }
    List<InputSplit> splits = new ArrayList<>(files);
    for (int i = 0; i < files; i++) {
      splits.add(new IndexSplit(i));
    }
    return splits;
  }

  @Override
  public RecordReader<IntWritable, NullWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new SingleIndexReader();
  }

  /** A split that is only a file number. */
  public static class IndexSplit extends InputSplit implements Writable {
    private int index;

    public IndexSplit() {
    }

    IndexSplit(int index) {
      this.index = index;
    }

    public int index() {
      return index;
    }

    @Override
    public long getLength() {
      return 0;
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(index);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      index = in.readInt();
    }
  }

  /** Yields the split's number once. */
  static class SingleIndexReader extends RecordReader<IntWritable, NullWritable> {
    private final IntWritable key = new IntWritable();
    private boolean delivered;
    private boolean ready;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {
      key.set(((IndexSplit) split).index());
    }

    @Override
    public boolean nextKeyValue() {
      ready = !delivered;
      delivered = true;
      return ready;
    }

    @Override
    public IntWritable getCurrentKey() {
      return key;
    }

    @Override
    public NullWritable getCurrentValue() {
      return NullWritable.get();
    }

    @Override
    public float getProgress() {
      return delivered ? 1 : 0;
    }

    @Override
    public void close() {
    }
  }
}
