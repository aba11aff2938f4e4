package org.locus.energy.namenode;

import java.io.IOException;
import java.util.Set;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.net.NetworkTopology;
import org.locus.energy.EnergyConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode's half of the fast node (seed 000 §4.3.1, wake reason 2), a NameNode service
 * plug-in ({@code dfs.namenode.plugins}): every {@code locus.energy.namenode.poll.interval.ms}
 * it reads the lists of spinning backup volumes the DataNodes keep under
 * {@code locus.energy.awake.dir} and hands their union to the NameNode's
 * {@link PrimaryFirstNetworkTopology}, which then lets a node's own readers read those backups
 * first ({@link AwakeLists} reads a list only when it changed). A poll that fails keeps the last
 * known set and is retried. With {@code locus.energy.fast.node=false}, or with another
 * {@code dfs.net.topology.impl}, it does nothing and says so in the log.
 */
public class AwakeBackupsFollower extends PollingNameNodePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(AwakeBackupsFollower.class);

  private PrimaryFirstNetworkTopology topology;
  private final AwakeLists lists = new AwakeLists();

  @Override
  protected boolean prepare() {
    if (!settings().fastNode()) {
      LOG.info("Fast node off ({}=false): readers are sent to primaries first",
          EnergyConfigKeys.FAST_NODE);
      return false;
    }
    NetworkTopology configured = nameNode().getNamesystem().getBlockManager()
        .getDatanodeManager().getNetworkTopology();
    if (!(configured instanceof PrimaryFirstNetworkTopology)) {
      LOG.warn("Fast node off: dfs.net.topology.impl is {}, not {}",
          configured.getClass().getName(), PrimaryFirstNetworkTopology.class.getName());
      return false;
    }
    topology = (PrimaryFirstNetworkTopology) configured;
    LOG.info("Following the spinning backups listed in {}", settings().awakeDir());
    return true;
  }

  @Override
  protected String threadName() {
    return "locus-energy-awake-backups";
  }

  @Override
  protected void poll(FSNamesystem namesystem) throws IOException {
    Set<String> awake = lists.read(client(), new Path(settings().awakeDir()));
    if (!awake.equals(topology.awakeBackups())) {
      topology.awakeBackups(awake);
      LOG.info("Spinning backups, read first by their own node: {}",
          awake.isEmpty() ? "none" : awake);
    }
  }

  /** @return the topology this plug-in feeds, or null when the fast node is off */
  public PrimaryFirstNetworkTopology topology() {
    return topology;
  }
}
