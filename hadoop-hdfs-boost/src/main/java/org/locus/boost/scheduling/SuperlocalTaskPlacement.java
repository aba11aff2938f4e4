package org.locus.boost.scheduling;

import java.util.List;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.mapreduce.am.LocalityTier;
import org.locus.mapreduce.am.SplitReplicaHosts;
import org.locus.mapreduce.am.TaskPlacement;
import org.locus.mapreduce.am.TierHosts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BoostDFS's task placement in the Locus MapReduce AM: a map is superlocal on the host holding
 * its split on REPLICATED storage (two spindles to read from), so that host's containers go to
 * it first; otherwise maps and reducers are placed as stock MapReduce places them. Where the
 * split files cannot be read, the job runs with stock locality and the AM's log says why.
 */
public class SuperlocalTaskPlacement implements TaskPlacement, Configurable {
  /**
   * BoostDFS's tier: a map on the host holding its split on REPLICATED storage, before the maps
   * merely node-local there. Its job counter ({@code superlocal}) is the maps that ran
   * superlocal.
   */
  public static final LocalityTier SUPERLOCAL = new LocalityTier("superlocal", -1);

  private static final Logger LOG = LoggerFactory.getLogger(SuperlocalTaskPlacement.class);

  private Configuration conf;
  private SplitReplicaHosts splits;
  private StorageType replicated;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    try {
      replicated = SuperlocalLayout.from(conf).replicatedType();
    } catch (RuntimeException e) {
      LOG.warn("Superlocal hosts unknown, maps get stock locality: {}", e.toString());
      return;
    }
    splits = SplitReplicaHosts.readOrNone(conf, replicated, SUPERLOCAL.name());
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
        : List.of(new TierHosts(SUPERLOCAL, splits.hostsOn(mapIndex, replicated)));
  }

  @Override
  public String toString() {
    return "SuperlocalTaskPlacement (BoostDFS: superlocal, node-local, rack-local, any)";
  }
}
