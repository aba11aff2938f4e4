package org.locus.energy.scheduling;

import java.util.List;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.locus.mapreduce.am.LocalityTier;
import org.locus.mapreduce.am.SplitReplicaHosts;
import org.locus.mapreduce.am.TaskPlacement;
import org.locus.mapreduce.am.TierHosts;

/**
 * Energy-efficient HDFS's task placement in the Locus MapReduce AM, the scheduling half of the
 * seed's fast node (seed 000 §4.3.1, wake reason 2): a map is backup-local on a host that holds
 * its split on a backup ({@code ARCHIVE}) volume. Such a host's containers go to the maps whose
 * primary it holds first and to its backup-local maps only once none of those waits, so a node
 * works through its own primary data and then helps with maps still pending on slower nodes,
 * reading its local backup (woken by the drain predictor, and read first by its own node's
 * readers while it spins: {@code PrimaryFirstNetworkTopology}). Reducers are placed as stock.
 * Where the split files cannot be read, the job runs with stock locality and the AM's log says
 * why.
 */
public class BackupLocalTaskPlacement implements TaskPlacement, Configurable {
  /**
   * Energy-efficient HDFS's tier: a map on a host holding its split only on a backup volume,
   * after the maps node-local (on a primary) there. Its job counter ({@code backup-local}) is
   * the maps that ran backup-local.
   */
  public static final LocalityTier BACKUP_LOCAL = new LocalityTier("backup-local", 1);

  private Configuration conf;
  private SplitReplicaHosts splits;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    splits = SplitReplicaHosts.readOrNone(conf, StorageType.ARCHIVE, "backup");
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public String reducerHost(int partition) {
    return null;
  }

  @Override
  public boolean mapsWaitForTheirHosts() {
    return false;
  }

  @Override
  public List<TierHosts> mapTiers(int mapIndex) {
    return splits == null ? List.of()
        : List.of(new TierHosts(BACKUP_LOCAL, splits.hostsOn(mapIndex, StorageType.ARCHIVE)));
  }

  @Override
  public String toString() {
    return "BackupLocalTaskPlacement (energy: node-local on a primary, then backup-local,"
        + " rack-local, any)";
  }
}
