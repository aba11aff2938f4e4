package org.locus.bench.energy;

import java.io.File;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.HotScratchSpace;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.datanode.EnergyMetricsInfo;
import org.locus.energy.datanode.EnergyMetricsSource;
import org.locus.kit.LocusMiniCluster;

/**
 * One embedded cluster of the energy bench or demo in one of three set-ups on the same hardware
 * (per node one primary disk and one backup volume, a 3-drive RAID-5 array as in seed §4.3.3,
 * simulated with the Barracuda datasheet): native HDFS (stock placement, every disk always
 * spinning, energy accounted only), energy-efficient HDFS with the seed's fixed timeout, the
 * same with wake-up prediction, and the same with write off-loading.
 */
public final class EnergyBenchCluster implements EnergyBenchTarget {
  public static final int NODES = 3;
  /** Block size of the demo's small corpus. */
  public static final long DEMO_BLOCK_SIZE = 256 * 1024;
  public static final String SPINDLES = "1,3";

  /** The three set-ups compared side by side. */
  public enum Setup {
    NATIVE("native HDFS (all disks active)", "native"),
    ENERGY("energy-efficient, fixed timeout", "timeout"),
    PREDICTION("energy-efficient + prediction", "prediction"),
    OFFLOAD("energy-efficient + write off-loading", "off-loading");

    public final String label;
    /** A word for charts. */
    public final String shortName;

    Setup(String label, String shortName) {
      this.label = label;
      this.shortName = shortName;
    }
  }

  private final LocusMiniCluster cluster;

  /**
   * @param blockSize HDFS block size
   * @param standbyTimeoutMillis the backups' idle timeout, also their least time up after a
   *     spin-up; it must outlast the gap between a predicted wake and the output it is for
   */
  public EnergyBenchCluster(File dir, Setup setup, long blockSize, long standbyTimeoutMillis)
      throws IOException {
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(dir)
        .nodes(NODES)
        .yarn(true)
        .volumes(volumes(setup).toArray(new StorageType[0]));
    keys(setup, blockSize, standbyTimeoutMillis).forEach(builder::set);
    cluster = builder.start();
    if (setup != Setup.NATIVE) {
      HotScratchSpace.apply(cluster.getFileSystem(), cluster.getConfiguration());
    }
  }

  /** @return each node's volumes in a set-up: a primary and a backup, or two native disks */
  static List<StorageType> volumes(Setup setup) {
    return setup == Setup.NATIVE ? List.of(StorageType.DISK, StorageType.DISK)
        : List.of(StorageType.DISK, StorageType.ARCHIVE);
  }

  /**
   * @return the keys of a set-up, the same on every kind of cluster: native HDFS with the power
   *     manager accounting only, or the feature's stock keys with the fixed timeout, with
   *     prediction or write off-loading or neither
   */
  static Map<String, String> keys(Setup setup, long blockSize, long standbyTimeoutMillis) {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("dfs.blocksize", Long.toString(blockSize));
    keys.put("dfs.replication", "3");
    keys.put(EnergyConfigKeys.BACKEND, "simulated");
    keys.put(EnergyConfigKeys.SPINDLES_PER_VOLUME, SPINDLES);
    keys.put(EnergyConfigKeys.POLL_INTERVAL_MS, "100");
    keys.put(EnergyConfigKeys.STANDBY_TIMEOUT_MS, Long.toString(standbyTimeoutMillis));
    keys.put(EnergyConfigKeys.MIN_RESIDENCY_MS, Long.toString(standbyTimeoutMillis));
    if (setup == Setup.NATIVE) {
      keys.put("dfs.datanode.plugins", "org.locus.energy.datanode.BackupDiskPowerManager");
      keys.put("dfs.datanode.fileio.profiling.sampling.percentage", "100");
      keys.put(EnergyConfigKeys.ACCOUNTING_ONLY, "true");
    } else {
      for (String[] kv : EnergyConfigKeys.STOCK_KEYS) {
        keys.put(kv[0], kv[1]);
      }
      // the same fixed timeout in both, so the difference is the prediction alone (the
      // spin-down policies are compared on traces by locus bench spindown)
      keys.put(EnergyConfigKeys.PREDICT_WAKE, Boolean.toString(setup == Setup.PREDICTION));
      keys.put(EnergyConfigKeys.SPINDOWN_POLICY, "fixed");
      if (setup == Setup.OFFLOAD) {
        keys.put("dfs.datanode.fsdataset.factory", EnergyConfigKeys.OFFLOADING_FACTORY);
        keys.put(EnergyConfigKeys.OFFLOAD_WRITES, "true");
      }
    }
    return keys;
  }

  public LocusMiniCluster cluster() {
    return cluster;
  }

  @Override
  public Configuration conf() {
    return cluster.getConfiguration();
  }

  /** @return every disk's account now, keyed by host and volume */
  @Override
  public Map<String, DiskEnergy> accounts() {
    Map<String, DiskEnergy> accounts = new HashMap<>();
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      EnergyMetricsSource source = (EnergyMetricsSource) DefaultMetricsSystem.instance()
          .getSource(EnergyMetricsInfo.sourceName(dn.getDisplayName()));
      if (source != null) {
        for (DiskEnergy d : source.accounts()) {
          accounts.put(d.host() + d.volume(), d);
        }
      }
    }
    return accounts;
  }

  @Override
  public int disks() {
    return 2 * NODES;
  }

  @Override
  public void close() {
    cluster.close();
  }
}
