package org.locus.energy.namenode;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.util.ServicePlugin;
import org.locus.energy.EnergySettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle the energy feature's NameNode plug-ins ({@code dfs.namenode.plugins}) share:
 * the settings parsed once when Hadoop instantiates the plug-in (a bad value stops the
 * NameNode's start-up naming the key), one daemon thread that polls every
 * {@code locus.energy.namenode.poll.interval.ms} while the NameNode is active and out of safe
 * mode, an HDFS client of this NameNode for the feature's small files, and a stop that ends
 * both. A failed poll is logged and retried at the next interval.
 */
abstract class PollingNameNodePlugin implements ServicePlugin, Configurable {
  private static final Logger LOG = LoggerFactory.getLogger(PollingNameNodePlugin.class);

  private Configuration conf;
  private EnergySettings settings;
  private NameNode nameNode;
  private ScheduledExecutorService poller;
  private FileSystem fs;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.settings = EnergySettings.from(conf);
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public final void start(Object service) {
    nameNode = (NameNode) service;
    if (settings == null) {
      setConf(nameNode.getConf());
    }
    if (!prepare()) {
      return;
    }
    poller = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName());
      t.setDaemon(true);
      return t;
    });
    long interval = settings.nameNodePollMillis();
    poller.scheduleWithFixedDelay(this::pollSafely, interval, interval, TimeUnit.MILLISECONDS);
  }

  /** @return whether to poll at all; called once at start, with the NameNode known */
  protected abstract boolean prepare();

  /** @return the polling thread's name */
  protected abstract String threadName();

  /** One poll, on the polling thread, while the NameNode is active and out of safe mode. */
  protected abstract void poll(FSNamesystem namesystem) throws IOException;

  private synchronized void pollSafely() {
    try {
      FSNamesystem namesystem = nameNode.getNamesystem();
      if (namesystem == null || namesystem.isInSafeMode() || !nameNode.isActiveState()) {
        return;
      }
      poll(namesystem);
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} failed; retrying next interval: {}", threadName(), e.toString());
    }
  }

  protected EnergySettings settings() {
    return settings;
  }

  protected NameNode nameNode() {
    return nameNode;
  }

  /** @return an HDFS client of this NameNode, made at first use */
  protected synchronized FileSystem client() throws IOException {
    if (fs == null) {
      URI uri = URI.create("hdfs://"
          + NetUtils.getHostPortString(nameNode.getNameNodeAddress()));
      fs = FileSystem.newInstance(uri, conf);
    }
    return fs;
  }

  @Override
  public void stop() {
    if (poller != null) {
      poller.shutdownNow();
    }
    synchronized (this) {
      if (fs != null) {
        try {
          fs.close();
        } catch (IOException e) {
          LOG.debug("Closing the {} client: {}", threadName(), e.getMessage());
        }
        fs = null;
      }
    }
  }

  @Override
  public void close() {
    stop();
  }
}
