package org.locus.lowpower.output;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * {@link TextOutputFormat} whose record writer writes through a {@link BufferedOutputStream}
 * of {@value #BUFFER_BYTES} bytes, so the file stream sees one call per 64 KiB instead of four
 * per record (key, separator, value, newline). The bytes written are the stock format's: same
 * separator key, same compression settings and codec, same file names.
 *
 * <p>Why (seed 003 §3.4.1, re-measured on 3.5.0 with {@code locus bench checksum}, see
 * docs/lowpower.md): 3.5.0's {@code FSOutputSummer} already batches checksums, so a small
 * write no longer costs a CRC call; but every call still passes two synchronized methods and
 * the stream's statistics, and with 8-byte calls that alone is a third to a half of the write
 * path's CPU. Text records of a few bytes per call are that case; records written in calls of
 * 100 bytes or more gain little.
 *
 * <p>Use per job: {@code job.setOutputFormatClass(BufferedTextOutputFormat.class)} (or
 * {@code mapreduce.job.outputformat.class}). New MapReduce API only.
 */
public class BufferedTextOutputFormat<K, V> extends TextOutputFormat<K, V> {
  /** The buffer: one HDFS packet's worth of data. */
  public static final int BUFFER_BYTES = 64 * 1024;

  @Override
  public RecordWriter<K, V> getRecordWriter(TaskAttemptContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    String separator = conf.get(SEPARATOR, "\t");
    CompressionCodec codec = null;
    String extension = "";
    if (getCompressOutput(job)) {
      codec = ReflectionUtils.newInstance(getOutputCompressorClass(job, GzipCodec.class), conf);
      extension = codec.getDefaultExtension();
    }
    Path file = getDefaultWorkFile(job, extension);
    OutputStream out = file.getFileSystem(conf).create(file, false);
    if (codec != null) {
      out = codec.createOutputStream(out);
    }
    // Closing the record writer closes this chain: buffer flushed, codec finished, file closed.
    return new LineRecordWriter<>(
        new DataOutputStream(new BufferedOutputStream(out, BUFFER_BYTES)), separator);
  }
}
