package org.locus.kat.ingest;

import java.io.Closeable;
import java.io.IOException;

/**
 * Where the data distribution module sends keyed records: one queue per bucket, each bucket
 * stored as one file whose first replica is on the bucket's owner. Two designs (seed 000
 * §3.4.3) implement it: {@link CentralQueues} and {@link PerNodeStreams}.
 *
 * <p>Lifecycle: {@link #add} any number of times, then {@link #finish} once (which makes every
 * file complete and durable), or {@link #close} without finish to abandon the import.
 */
public interface BucketSink extends Closeable {
  /** Queues one record (a line, without terminator) of a bucket. */
  void add(int bucket, String record) throws IOException;

  /** Writes out everything queued and closes every file. */
  void finish() throws IOException;
}
