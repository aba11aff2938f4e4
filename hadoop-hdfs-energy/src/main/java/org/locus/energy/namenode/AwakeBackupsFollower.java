package org.locus.energy.namenode;

import java.io.IOException;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.util.ServicePlugin;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.EnergySettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode's half of the fast node (seed 000 §4.3.1, wake reason 2), a NameNode service
 * plug-in ({@code dfs.namenode.plugins}): every {@code locus.energy.namenode.poll.interval.ms}
 * it reads the lists of spinning backup volumes the DataNodes keep under
 * {@code locus.energy.awake.dir} and hands their union to the NameNode's
 * {@link PrimaryFirstNetworkTopology}, which then lets a node's own readers read those backups
 * first ({@link AwakeLists} reads a list only when it changed). A poll that fails keeps the last
 * known set and is retried. With {@code locus.energy.fast.node=false}, or with
 * another {@code dfs.net.topology.impl}, it does nothing and says so in the log.
 */
public class AwakeBackupsFollower implements ServicePlugin, Configurable {
  private static final Logger LOG = LoggerFactory.getLogger(AwakeBackupsFollower.class);

  private Configuration conf;
  private EnergySettings settings;
  private NameNode nameNode;
  private PrimaryFirstNetworkTopology topology;
  private ScheduledExecutorService poller;
  private FileSystem fs;
  private final AwakeLists lists = new AwakeLists();

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
  public void start(Object service) {
    nameNode = (NameNode) service;
    if (settings == null) {
      setConf(nameNode.getConf());
    }
    if (!settings.fastNode()) {
      LOG.info("Fast node off ({}=false): readers are sent to primaries first",
          EnergyConfigKeys.FAST_NODE);
      return;
    }
    NetworkTopology configured = nameNode.getNamesystem().getBlockManager()
        .getDatanodeManager().getNetworkTopology();
    if (!(configured instanceof PrimaryFirstNetworkTopology)) {
      LOG.warn("Fast node off: dfs.net.topology.impl is {}, not {}",
          configured.getClass().getName(), PrimaryFirstNetworkTopology.class.getName());
      return;
    }
    topology = (PrimaryFirstNetworkTopology) configured;
    poller = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "locus-energy-awake-backups");
      t.setDaemon(true);
      return t;
    });
    long interval = settings.nameNodePollMillis();
    poller.scheduleWithFixedDelay(this::pollSafely, interval, interval, TimeUnit.MILLISECONDS);
    LOG.info("Following the spinning backups listed in {}", settings.awakeDir());
  }

  private void pollSafely() {
    try {
      poll();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Reading the spinning backups failed; retrying next interval: {}", e.toString());
    }
  }

  private synchronized void poll() throws IOException {
    FSNamesystem namesystem = nameNode.getNamesystem();
    if (namesystem == null || namesystem.isInSafeMode() || !nameNode.isActiveState()) {
      return;
    }
    Set<String> awake = lists.read(client(), new Path(settings.awakeDir()));
    if (!awake.equals(topology.awakeBackups())) {
      topology.awakeBackups(awake);
      LOG.info("Spinning backups, read first by their own node: {}",
          awake.isEmpty() ? "none" : awake);
    }
  }

  private FileSystem client() throws IOException {
    if (fs == null) {
      URI uri = URI.create("hdfs://"
          + NetUtils.getHostPortString(nameNode.getNameNodeAddress()));
      fs = FileSystem.newInstance(uri, conf);
    }
    return fs;
  }

  /** @return the topology this plug-in feeds, or null when the fast node is off */
  public PrimaryFirstNetworkTopology topology() {
    return topology;
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
          LOG.debug("Closing the awake-backups client: {}", e.getMessage());
        }
      }
    }
  }

  @Override
  public void close() {
    stop();
  }
}
