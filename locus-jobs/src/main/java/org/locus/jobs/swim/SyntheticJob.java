package org.locus.jobs.swim;

import java.io.IOException;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.catalog.JobOption;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.catalog.LocusJob;
import org.locus.jobs.puma.RawBytesOutputFormat;

/**
 * The SWIM synthetic job (seed 002 §2.2): reads, shuffles and writes given numbers of bytes,
 * whatever the data. Maps read their byte range ({@link ByteRangeInputFormat}) and emit map
 * output in proportion to what they have read, topping up to their exact share at the end;
 * map output records are dealt round-robin to the reducers, so each gets an equal share; each
 * reducer writes its share of the output in proportion to what it has received. With no
 * shuffle bytes the job is map-only and the maps write the output. Output is raw bytes
 * ({@link RawBytesOutputFormat}), so the written bytes are the target exactly.
 *
 * <p>Measured by Hadoop's own counters: {@code FileInputFormatCounter.BYTES_READ},
 * {@code TaskCounter.MAP_OUTPUT_BYTES}, {@code FileOutputFormatCounter.BYTES_WRITTEN}.
 */
public final class SyntheticJob implements LocusJob {
  static final String INPUT_BYTES = "locus.job.swim.input.bytes";
  static final String SHUFFLE_BYTES = "locus.job.swim.shuffle.bytes";
  static final String OUTPUT_BYTES = "locus.job.swim.output.bytes";
  static final String SPLIT_BYTES = "locus.job.swim.split.bytes";

  /** Serialised size of a map output record's framing and key: two length ints, 8-byte key. */
  static final int RECORD_OVERHEAD = 4 + 8 + 4;
  /** Largest serialised map output record. */
  static final int MAX_RECORD_BYTES = 16 * 1024;

  @Override
  public String name() {
    return "swim-synthetic";
  }

  @Override
  public String summary() {
    return "SWIM synthetic job: read, shuffle and write given byte counts";
  }

  @Override
  public String inputKind() {
    return "any files (a pool to read from, e.g. locus generate text)";
  }

  @Override
  public List<JobOption> options() {
    return List.of(
        JobOption.value("input-bytes", "BYTES", "bytes to read from the input pool; required"),
        JobOption.value("shuffle-bytes", "BYTES", "map output bytes; 0 = map-only (default 0)"),
        JobOption.value("output-bytes", "BYTES", "bytes to write (default 0)"),
        JobOption.value("split-bytes", "BYTES", "largest input split (default 16m)"));
  }

  @Override
  public void check(JobArguments args) {
    if (!args.names().contains("input-bytes")) {
      throw new IllegalArgumentException("--input-bytes BYTES is required");
    }
    targets(args);
    args.longValue("split-bytes", 16L << 20, 1, Long.MAX_VALUE);
  }

  private static ByteTargets targets(JobArguments args) {
    return new ByteTargets(args.longValue("input-bytes", 0, 1, Long.MAX_VALUE),
        args.longValue("shuffle-bytes", 0, 0, Long.MAX_VALUE),
        args.longValue("output-bytes", 0, 0, Long.MAX_VALUE), false);
  }

  /** Reads its range; emits map output or (map-only) output in proportion. */
  public static class SyntheticMapper
      extends Mapper<LongWritable, BytesWritable, BytesWritable, BytesWritable> {
    private final BytesWritable key = new BytesWritable(new byte[8]);
    private final BytesWritable value = new BytesWritable();
    private final byte[] payload = new byte[MAX_RECORD_BYTES];
    private SplittableRandom random;
    private long splitLength;
    private long share;
    private long read;
    private long emitted;
    private boolean mapOnly;
    private int reducers;
    private int nextPartition;

    @Override
    protected void setup(Context context) {
      ByteRangeInputFormat.RangeSplit split =
          (ByteRangeInputFormat.RangeSplit) context.getInputSplit();
      random = new SplittableRandom(split.getStart() * 31 + split.getPath().hashCode());
      random.nextBytes(payload);
      splitLength = split.getLength();
      reducers = context.getNumReduceTasks();
      mapOnly = reducers == 0;
      share = mapOnly ? split.outputShare() : split.shuffleShare();
      nextPartition = random.nextInt(Math.max(1, reducers));
    }

    @Override
    protected void map(LongWritable offset, BytesWritable chunk, Context context)
        throws IOException, InterruptedException {
      read += chunk.getLength();
      emitUpTo(share * read / splitLength, context);
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      emitUpTo(share, context);
    }

    private void emitUpTo(long goal, Context context) throws IOException, InterruptedException {
      while (goal - emitted > (mapOnly ? 0 : RECORD_OVERHEAD)) {
        if (mapOnly) {
          int length = (int) Math.min(MAX_RECORD_BYTES, goal - emitted);
          value.set(payload, 0, length);
          key.setSize(0);
          context.write(key, value);
          emitted += length;
        } else {
          int record = (int) Math.min(MAX_RECORD_BYTES, goal - emitted);
          key.setSize(8);
          byte[] keyBytes = key.getBytes();
          int partition = nextPartition;
          nextPartition = (nextPartition + 1) % reducers;
          keyBytes[0] = (byte) (partition >>> 24);
          keyBytes[1] = (byte) (partition >>> 16);
          keyBytes[2] = (byte) (partition >>> 8);
          keyBytes[3] = (byte) partition;
          int noise = random.nextInt();
          keyBytes[4] = (byte) (noise >>> 24);
          keyBytes[5] = (byte) (noise >>> 16);
          keyBytes[6] = (byte) (noise >>> 8);
          keyBytes[7] = (byte) noise;
          value.set(payload, 0, record - RECORD_OVERHEAD);
          context.write(key, value);
          emitted += record;
        }
      }
    }
  }

  /** Sends a record to the reducer named in its key's first four bytes. */
  public static class DealtPartitioner extends Partitioner<BytesWritable, BytesWritable> {
    @Override
    public int getPartition(BytesWritable key, BytesWritable value, int partitions) {
      byte[] k = key.getBytes();
      int dealt = (k[0] & 0xff) << 24 | (k[1] & 0xff) << 16 | (k[2] & 0xff) << 8 | (k[3] & 0xff);
      return Math.floorMod(dealt, partitions);
    }
  }

  /** Writes this reducer's output share in proportion to the shuffle bytes received. */
  public static class SyntheticReducer
      extends Reducer<BytesWritable, BytesWritable, BytesWritable, BytesWritable> {
    private final BytesWritable key = new BytesWritable();
    private final BytesWritable value = new BytesWritable();
    private final byte[] payload = new byte[ByteRangeInputFormat.CHUNK_BYTES];
    private long share;
    private long expected;
    private long received;
    private long written;

    @Override
    protected void setup(Context context) {
      Configuration conf = context.getConfiguration();
      int reducers = context.getNumReduceTasks();
      int me = context.getTaskAttemptID().getTaskID().getId();
      long output = conf.getLong(OUTPUT_BYTES, 0);
      share = output * (me + 1) / reducers - output * me / reducers;
      expected = Math.max(1, conf.getLong(SHUFFLE_BYTES, 0) / reducers);
      new SplittableRandom(me).nextBytes(payload);
    }

    @Override
    protected void reduce(BytesWritable k, Iterable<BytesWritable> values, Context context)
        throws IOException, InterruptedException {
      for (BytesWritable v : values) {
        received += v.getLength() + RECORD_OVERHEAD;
      }
      writeUpTo(Math.min(share, (long) ((double) share * received / expected)), context);
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      writeUpTo(share, context);
    }

    private void writeUpTo(long goal, Context context) throws IOException, InterruptedException {
      while (written < goal) {
        int length = (int) Math.min(payload.length, goal - written);
        value.set(payload, 0, length);
        context.write(key, value);
        written += length;
      }
    }
  }

  /** Creates (does not submit) a synthetic job over the pool {@code input}. */
  public static Job create(Configuration conf, Path input, Path output, ByteTargets targets,
      long splitBytes, int reducers) throws IOException {
    Job job = Job.getInstance(conf, "locus-swim-synthetic");
    job.setJarByClass(SyntheticJob.class);
    Configuration jobConf = job.getConfiguration();
    jobConf.setLong(INPUT_BYTES, targets.inputBytes());
    jobConf.setLong(SHUFFLE_BYTES, targets.shuffleBytes());
    jobConf.setLong(OUTPUT_BYTES, targets.outputBytes());
    jobConf.setLong(SPLIT_BYTES, splitBytes);
    job.setInputFormatClass(ByteRangeInputFormat.class);
    job.setMapperClass(SyntheticMapper.class);
    job.setPartitionerClass(DealtPartitioner.class);
    job.setReducerClass(SyntheticReducer.class);
    job.setNumReduceTasks(targets.shuffleBytes() == 0 ? 0 : reducers);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    job.setOutputFormatClass(RawBytesOutputFormat.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  @Override
  public JobResult run(Configuration conf, Path input, Path output, JobArguments args)
      throws IOException, InterruptedException {
    check(args);
    return JobResult.of(JobOutcome.run(args.prepareInputJob(create(conf, input, output,
        targets(args), args.longValue("split-bytes", 16L << 20, 1, Long.MAX_VALUE),
        args.reducers())), false));
  }
}
