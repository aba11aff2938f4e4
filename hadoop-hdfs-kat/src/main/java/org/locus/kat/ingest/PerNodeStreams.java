package org.locus.kat.ingest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.io.IOUtils;

/**
 * Distributed queues (seed 000 §3.4.3, second design): every bucket streams straight to its
 * owner as records arrive — an open HDFS pipeline per bucket whose first DataNode is the owner,
 * which packs the records into blocks locally as they fill. No local spill and all owners work
 * in parallel; costs one open stream (and its buffers and streamer thread) per bucket. Suits
 * larger clusters, where the owners' disks and links are the limit.
 */
final class PerNodeStreams implements BucketSink {
  private final BucketFiles files;
  private final FSDataOutputStream[] streams;

  PerNodeStreams(BucketFiles files, int buckets) {
    this.files = files;
    this.streams = new FSDataOutputStream[buckets];
  }

  @Override
  public void add(int bucket, String record) throws IOException {
    if (streams[bucket] == null) {
      streams[bucket] = files.create(bucket);
    }
    streams[bucket].write(record.getBytes(StandardCharsets.UTF_8));
    streams[bucket].write('\n');
  }

  @Override
  public void finish() throws IOException {
    for (int bucket = 0; bucket < streams.length; bucket++) {
      if (streams[bucket] != null) {
        streams[bucket].hsync();
        streams[bucket].close();
        streams[bucket] = null;
      }
    }
  }

  @Override
  public void close() {
    for (FSDataOutputStream stream : streams) {
      IOUtils.closeStream(stream);
    }
  }
}
