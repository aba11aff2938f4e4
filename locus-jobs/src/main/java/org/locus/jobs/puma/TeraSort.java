package org.locus.jobs.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobOption;
import org.locus.jobs.catalog.SingleMapReduceJob;

/**
 * terasort (shuffle-heavy, seed 001 Table 4.7): sorts tera records by their 10-byte key
 * (unsigned byte order). Before submitting, the client samples keys evenly from every input
 * file and picks {@code reducers - 1} boundary keys; reducer {@code i} gets the keys between
 * boundaries {@code i-1} and {@code i}, so the part files concatenated in name order are
 * globally sorted.
 */
public final class TeraSort extends SingleMapReduceJob {
  /** Comma-separated hex boundary keys, ascending. */
  static final String BOUNDARIES_KEY = "locus.job.terasort.boundaries";

  @Override
  public String name() {
    return "terasort";
  }

  @Override
  public String summary() {
    return "sort tera records by key into globally ordered part files";
  }

  @Override
  public String inputKind() {
    return "tera";
  }

  @Override
  public List<JobOption> options() {
    return List.of(JobOption.value("samples", "N",
        "keys sampled per input file for the partition boundaries (default 1000)"));
  }

  @Override
  public void check(JobArguments args) {
    args.intValue("samples", 1000, 1, 1_000_000);
  }

  /** Splits a record into key (10 bytes) and value (90 bytes). */
  public static class KeyValueMapper
      extends Mapper<LongWritable, BytesWritable, BytesWritable, BytesWritable> {
    private final BytesWritable key = new BytesWritable();
    private final BytesWritable value = new BytesWritable();

    @Override
    protected void map(LongWritable offset, BytesWritable record, Context context)
        throws IOException, InterruptedException {
      byte[] bytes = record.getBytes();
      key.set(bytes, 0, TeraRecords.KEY_BYTES);
      value.set(bytes, TeraRecords.KEY_BYTES, TeraRecords.RECORD_BYTES - TeraRecords.KEY_BYTES);
      context.write(key, value);
    }
  }

  /** Sends a key to the reducer whose boundary range holds it. */
  public static class RangePartitioner extends Partitioner<BytesWritable, BytesWritable>
      implements Configurable {
    private Configuration conf;
    private byte[][] boundaries;

    @Override
    public void setConf(Configuration conf) {
      this.conf = conf;
      String[] hex = conf.getTrimmedStrings(BOUNDARIES_KEY);
      boundaries = new byte[hex.length][];
      for (int i = 0; i < hex.length; i++) {
        boundaries[i] = TeraRecords.parseKeyHex(hex[i]);
      }
    }

    @Override
    public Configuration getConf() {
      return conf;
    }

    @Override
    public int getPartition(BytesWritable key, BytesWritable value, int partitions) {
      int low = 0;
      int high = Math.min(boundaries.length, partitions - 1);
      // first boundary greater than the key = the partition
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (TeraRecords.compareKeys(key.getBytes(), 0, boundaries[mid], 0) >= 0) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }
  }

  /** Samples keys evenly spaced through every input file and returns the boundaries. */
  static List<String> boundaries(FileSystem fs, Path input, int perFile, int reducers)
      throws IOException {
    List<byte[]> sample = new ArrayList<>();
    byte[] key = new byte[TeraRecords.KEY_BYTES];
    for (FileStatus file : InputFiles.dataFiles(fs, input)) {
      long records = file.getLen() / TeraRecords.RECORD_BYTES;
      long take = Math.min(records, perFile);
      try (FSDataInputStream in = fs.open(file.getPath())) {
        for (long i = 0; i < take; i++) {
          in.readFully(records * i / take * TeraRecords.RECORD_BYTES, key);
          sample.add(key.clone());
        }
      }
    }
    sample.sort((a, b) -> TeraRecords.compareKeys(a, 0, b, 0));
    List<String> boundaries = new ArrayList<>();
    for (int i = 1; i < reducers && !sample.isEmpty(); i++) {
      boundaries.add(TeraRecords.keyHex(sample.get(sample.size() * i / reducers)));
    }
    return boundaries;
  }

  @Override
  protected void configure(Job job, JobArguments args) throws IOException {
    Configuration conf = job.getConfiguration();
    Path input = org.apache.hadoop.mapreduce.lib.input.FileInputFormat.getInputPaths(job)[0];
    List<String> boundaries = boundaries(input.getFileSystem(conf), input,
        args.intValue("samples", 1000, 1, 1_000_000), job.getNumReduceTasks());
    conf.setStrings(BOUNDARIES_KEY, boundaries.toArray(new String[0]));
    job.setNumReduceTasks(boundaries.size() + 1);
    TeraInputFormat.configure(conf);
    job.setInputFormatClass(TeraInputFormat.class);
    job.setMapperClass(KeyValueMapper.class);
    job.setPartitionerClass(RangePartitioner.class);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    job.setOutputFormatClass(RawBytesOutputFormat.class);
  }
}
