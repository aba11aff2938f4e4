package org.locus.bench.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the NameNode's block health over its {@code /jmx} servlet every few seconds during a
 * chaos run: under-replicated, missing and corrupt blocks ({@code FSNamesystem}) and live
 * DataNodes ({@code FSNamesystemState}). A read that fails (the NameNode busy) is skipped.
 */
public final class HealthSampler implements AutoCloseable {
  /**
   * One reading.
   *
   * @param atMillis when, from the run's start
   * @param underReplicated blocks with fewer live replicas than their replication
   * @param missing blocks with no live replica
   * @param corrupt blocks with a corrupt replica
   * @param liveDataNodes DataNodes the NameNode counts live
   */
  public record Sample(long atMillis, long underReplicated, long missing, long corrupt,
      long liveDataNodes) {
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String httpAddress;
  private final long periodMillis;
  private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
  private Thread thread;
  private long startNanos;

  /**
   * @param httpAddress the NameNode's {@code dfs.namenode.http-address}, HOST:PORT
   * @param periodMillis time between readings
   */
  public HealthSampler(String httpAddress, long periodMillis) {
    this.httpAddress = httpAddress;
    this.periodMillis = periodMillis;
  }

  /** Starts reading, times counted from {@code startNanos}. */
  public void start(long startNanos) {
    this.startNanos = startNanos;
    thread = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          samples.add(read());
        } catch (IOException e) {
          // a NameNode too busy to answer: the next reading counts
        }
        try {
          Thread.sleep(periodMillis);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "locus-chaos-health");
    thread.setDaemon(true);
    thread.start();
  }

  /** @return one reading now */
  public Sample read() throws IOException {
    JsonNode names = bean("FSNamesystem");
    JsonNode state = bean("FSNamesystemState");
    return new Sample(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
        names.path("UnderReplicatedBlocks").asLong(-1), names.path("MissingBlocks").asLong(-1),
        names.path("CorruptBlocks").asLong(-1), state.path("NumLiveDataNodes").asLong(-1));
  }

  private JsonNode bean(String name) throws IOException {
    URL url = new URL("http://" + httpAddress + "/jmx?qry=Hadoop:service=NameNode,name="
        + name);
    HttpURLConnection http = (HttpURLConnection) url.openConnection();
    http.setConnectTimeout(5_000);
    http.setReadTimeout(10_000);
    try (InputStream in = http.getInputStream()) {
      JsonNode beans = JSON.readTree(in).path("beans");
      if (!beans.isArray() || beans.isEmpty()) {
        throw new IOException("the NameNode at " + httpAddress + " has no bean " + name);
      }
      return beans.get(0);
    } finally {
      http.disconnect();
    }
  }

  /** @return the readings so far, in time order */
  public List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (thread != null) {
      thread.interrupt();
      thread.join(15_000);
    }
  }
}
