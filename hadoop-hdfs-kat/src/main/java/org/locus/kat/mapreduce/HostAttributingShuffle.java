package org.locus.kat.mapreduce;

import java.io.IOException;
import java.io.InputStream;

import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;

/**
 * Hadoop's shuffle, plus counters of how many bytes crossed hosts
 * ({@link ShuffleLocality}). Configure it for any job with
 * {@code mapreduce.job.reduce.shuffle.consumer.plugin.class}; fetching, merging and failure
 * handling are the stock {@link Shuffle}'s.
 *
 * <p>Every fetched map output passes through {@link MapOutput#shuffle}, which is told the host
 * it comes from. This class wraps the merge manager so that each output it hands out is wrapped
 * too; a wrapped output notes the source host and size, and adds them to the counters when the
 * fetch is committed (an aborted fetch counts nothing). The reducer's own host is the
 * NodeManager host YARN gives every container ({@code NM_HOST}).
 */
public class HostAttributingShuffle<K, V> extends Shuffle<K, V> {
  private String ownHost;
  private Reporter reporter;

  @Override
  public void init(ShuffleConsumerPlugin.Context context) {
    this.ownHost = System.getenv(Environment.NM_HOST.name());
    this.reporter = context.getReporter();
    super.init(context);
  }

  @Override
  protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
    MergeManager<K, V> stock = super.createMergeManager(context);
    return new MergeManager<K, V>() {
      @Override
      public void waitForResource() throws InterruptedException {
        stock.waitForResource();
      }

      @Override
      public MapOutput<K, V> reserve(TaskAttemptID mapId, long requestedSize, int fetcher)
          throws IOException {
        MapOutput<K, V> output = stock.reserve(mapId, requestedSize, fetcher);
        return output == null ? null : new AttributedOutput(output);
      }

      @Override
      public RawKeyValueIterator close() throws Throwable {
        return stock.close();
      }
    };
  }

  /** MapHost names are the map's shuffle service, {@code host:port}; keep the host. */
  private static String hostPart(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    return colon < 0 ? hostAndPort : hostAndPort.substring(0, colon);
  }

  /** A fetched map output that remembers where it came from. */
  private final class AttributedOutput extends MapOutput<K, V> {
    private final MapOutput<K, V> output;
    private String sourceHost;
    private long bytes;

    AttributedOutput(MapOutput<K, V> output) {
      super(output.getMapId(), output.getSize(), output.isPrimaryMapOutput());
      this.output = output;
    }

    @Override
    public void shuffle(MapHost host, InputStream input, long compressedLength,
        long decompressedLength, ShuffleClientMetrics metrics, Reporter r) throws IOException {
      sourceHost = hostPart(host.getHostName());
      bytes = compressedLength;
      output.shuffle(host, input, compressedLength, decompressedLength, metrics, r);
    }

    @Override
    public void commit() throws IOException {
      output.commit();
      boolean local = ownHost == null || ownHost.equals(sourceHost);
      Counters.Counter byteCounter = reporter.getCounter(
          local ? ShuffleLocality.SAME_HOST_BYTES : ShuffleLocality.CROSS_HOST_BYTES);
      Counters.Counter fetchCounter = reporter.getCounter(
          local ? ShuffleLocality.SAME_HOST_FETCHES : ShuffleLocality.CROSS_HOST_FETCHES);
      if (byteCounter != null) {
        byteCounter.increment(bytes);
        fetchCounter.increment(1);
      }
    }

    @Override
    public void abort() {
      output.abort();
    }

    @Override
    public String getDescription() {
      return output.getDescription();
    }
  }
}
