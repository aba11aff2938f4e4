package org.locus.bench.energy;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.HotScratchSpace;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.datanode.EnergyMetricsSource;
import org.locus.kit.LocusMiniCluster;

/**
 * One embedded cluster of the energy bench or demo in one of three set-ups on the same hardware
 * (per node one primary disk and one backup volume, a 3-drive RAID-5 array as in seed §4.3.3,
 * simulated with the Barracuda datasheet): native HDFS (stock placement, every disk always
 * spinning, energy accounted only), energy-efficient HDFS with the seed's fixed timeout, and
 * the same with wake-up prediction.
 */
public final class EnergyBenchCluster implements AutoCloseable {
  public static final int NODES = 3;
  /** Block size of the demo's small corpus. */
  public static final long DEMO_BLOCK_SIZE = 256 * 1024;
  public static final String SPINDLES = "1,3";

  /** The three set-ups compared side by side. */
  public enum Setup {
    NATIVE("native HDFS (all disks active)"),
    ENERGY("energy-efficient, fixed timeout"),
    PREDICTION("energy-efficient + prediction");

    public final String label;

    Setup(String label) {
      this.label = label;
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
        .set("dfs.blocksize", Long.toString(blockSize))
        .set("dfs.replication", "3")
        .set(EnergyConfigKeys.BACKEND, "simulated")
        .set(EnergyConfigKeys.SPINDLES_PER_VOLUME, SPINDLES)
        .set(EnergyConfigKeys.POLL_INTERVAL_MS, "100")
        .set(EnergyConfigKeys.STANDBY_TIMEOUT_MS, Long.toString(standbyTimeoutMillis))
        .set(EnergyConfigKeys.MIN_RESIDENCY_MS, Long.toString(standbyTimeoutMillis));
    if (setup == Setup.NATIVE) {
      builder.volumes(StorageType.DISK, StorageType.DISK)
          .set("dfs.datanode.plugins", "org.locus.energy.datanode.BackupDiskPowerManager")
          .set("dfs.datanode.fileio.profiling.sampling.percentage", "100")
          .set(EnergyConfigKeys.ACCOUNTING_ONLY, "true");
    } else {
      builder.volumes(StorageType.DISK, StorageType.ARCHIVE);
      for (String[] kv : EnergyConfigKeys.STOCK_KEYS) {
        builder.set(kv[0], kv[1]);
      }
      // the same fixed timeout in both, so the difference is the prediction alone (the
      // spin-down policies are compared on traces by locus bench spindown)
      builder.set(EnergyConfigKeys.PREDICT_WAKE, Boolean.toString(setup == Setup.PREDICTION))
          .set(EnergyConfigKeys.SPINDOWN_POLICY, "fixed");
    }
    cluster = builder.start();
    if (setup != Setup.NATIVE) {
      HotScratchSpace.apply(cluster.getFileSystem(), cluster.getConfiguration());
    }
  }

  public LocusMiniCluster cluster() {
    return cluster;
  }

  /** @return every disk's account now, keyed by host and volume */
  public Map<String, DiskEnergy> accounts() {
    Map<String, DiskEnergy> accounts = new HashMap<>();
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      EnergyMetricsSource source = (EnergyMetricsSource) DefaultMetricsSystem.instance()
          .getSource("LocusEnergy-" + dn.getDisplayName().replace(':', '-'));
      if (source != null) {
        for (DiskEnergy d : source.accounts()) {
          accounts.put(d.host() + d.volume(), d);
        }
      }
    }
    return accounts;
  }

  /** @return the accounts of the interval between two readings */
  public static List<DiskEnergy> between(Map<String, DiskEnergy> before,
      Map<String, DiskEnergy> after) {
    List<DiskEnergy> interval = new ArrayList<>();
    after.forEach((key, a) -> {
      DiskEnergy b = before.get(key);
      interval.add(b == null ? a : a.minus(b));
    });
    return interval;
  }

  /** Waits until every backup disk is in standby, up to {@code millis}; false on timeout. */
  public boolean awaitBackupsInStandby(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    while (System.nanoTime() < deadline) {
      Map<String, DiskEnergy> now = accounts();
      if (now.size() == 2 * NODES && now.values().stream()
          .filter(DiskEnergy::backup).allMatch(d -> d.state().equals("STANDBY"))) {
        return true;
      }
      Thread.sleep(200);
    }
    return false;
  }

  /**
   * Waits until no disk has been transferring for {@code quietMillis} (at most 5 % of that
   * window active), up to {@code millis}: every set-up starts a workload from the same calm
   * machine, whatever its disks do meanwhile. False on timeout.
   */
  public boolean awaitQuietDisks(long quietMillis, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    Map<String, DiskEnergy> previous = accounts();
    while (System.nanoTime() < deadline) {
      Thread.sleep(quietMillis);
      Map<String, DiskEnergy> now = accounts();
      boolean quiet = now.size() == 2 * NODES;
      for (DiskEnergy d : between(previous, now)) {
        quiet &= d.activeMillis() <= quietMillis / 20;
      }
      if (quiet) {
        return true;
      }
      previous = now;
    }
    return false;
  }

  @Override
  public void close() {
    cluster.close();
  }
}
