package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the ResourceManager for an application's name with the NodeManager's configuration
 * ({@link YarnClient#getApplicationReport}). A slow or unreachable RM costs at most the time
 * limit: the client's connection retries are capped to it, and the call runs on a helper
 * thread that is abandoned (interrupted) when the limit passes, so a stuck call never holds
 * up the next lookup.
 */
public final class ResourceManagerNameLookup implements ApplicationNameLookup {

  private static final Logger LOG = LoggerFactory.getLogger(ResourceManagerNameLookup.class);

  private final YarnClient client;
  private final long timeoutMs;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "locus-zone-rm-lookup");
    t.setDaemon(true);
    return t;
  });

  public ResourceManagerNameLookup(Configuration conf, long timeoutMs) {
    Configuration clientConf = new Configuration(conf);
    clientConf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, timeoutMs);
    clientConf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS,
        Math.max(1, Math.min(timeoutMs / 5, 1000)));
    this.client = YarnClient.createYarnClient();
    this.client.init(clientConf);
    this.client.start();
    this.timeoutMs = timeoutMs;
  }

  @Override
  public String nameOf(ApplicationId app) {
    Future<String> f = executor.submit(() -> client.getApplicationReport(app).getName());
    try {
      return f.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      f.cancel(true);
      LOG.warn("No name for {} from the ResourceManager within {} ms", app, timeoutMs);
    } catch (ExecutionException e) {
      LOG.warn("No name for {} from the ResourceManager: {}", app, e.getCause().toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return null;
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      client.close();
    } catch (IOException e) {
      LOG.warn("Closing the ResourceManager client failed", e);
    }
  }
}
