package org.locus.jobs.puma;

import java.io.DataOutputStream;
import java.io.IOException;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Writes each record as its key's bytes then its value's bytes, nothing else: no separators,
 * no framing. Tera records come out as the 100 bytes they went in as; a synthetic job's output
 * bytes are exactly the bytes it wrote.
 */
public class RawBytesOutputFormat extends FileOutputFormat<BytesWritable, BytesWritable> {
  @Override
  public RecordWriter<BytesWritable, BytesWritable> getRecordWriter(TaskAttemptContext context)
      throws IOException {
    Path file = getDefaultWorkFile(context, "");
    FileSystem fs = file.getFileSystem(context.getConfiguration());
    DataOutputStream out = fs.create(file, false);
    return new RecordWriter<>() {
      @Override
      public void write(BytesWritable key, BytesWritable value) throws IOException {
        if (key != null) {
          out.write(key.getBytes(), 0, key.getLength());
        }
        if (value != null) {
          out.write(value.getBytes(), 0, value.getLength());
        }
      }

      @Override
      public void close(TaskAttemptContext ignored) throws IOException {
        out.close();
      }
    };
  }
}
