package org.locus.energy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.locus.energy.datanode.BackupDisk;
import org.locus.energy.datanode.BackupDiskPowerManager;
import org.locus.energy.datanode.EnergyMetricsInfo;
import org.locus.energy.datanode.EnergyMetricsSource;
import org.locus.kit.LocusMiniCluster;

/** The feature's keys for test clusters, its power managers, and polling with a deadline. */
final class EnergyTestClusters {
  private EnergyTestClusters() {
  }

  /** Turns the feature on with simulated disks and test-sized timings. */
  static LocusMiniCluster.Builder withEnergyFeature(LocusMiniCluster.Builder builder) {
    for (String[] kv : EnergyConfigKeys.STOCK_KEYS) {
      builder.set(kv[0], kv[1]);
    }
    return builder
        .set(EnergyConfigKeys.BACKEND, "simulated")
        .set(EnergyConfigKeys.POLL_INTERVAL_MS, "100")
        .set(EnergyConfigKeys.STANDBY_TIMEOUT_MS, "2000")
        .set(EnergyConfigKeys.MIN_RESIDENCY_MS, "1000")
        .set(EnergyConfigKeys.WRITE_GUARD_QUIET_MS, "1000");
  }

  /** Polls {@code condition} every 100 ms until it holds or {@code millis} pass. */
  static void await(String what, long millis, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + millis + " ms waiting for " + what);
      }
      Thread.sleep(100);
    }
  }

  /** @return every DataNode's power manager, found through its metrics source */
  static List<BackupDiskPowerManager> managers(LocusMiniCluster cluster) {
    List<BackupDiskPowerManager> managers = new ArrayList<>();
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      managers.add(manager(dn));
    }
    return managers;
  }

  /** @return the DataNode's power manager, found through its metrics source */
  static BackupDiskPowerManager manager(DataNode dn) {
    String name = EnergyMetricsInfo.sourceName(dn.getDisplayName());
    EnergyMetricsSource source =
        (EnergyMetricsSource) DefaultMetricsSystem.instance().getSource(name);
    if (source == null) {
      throw new AssertionError("no metrics source " + name);
    }
    return source.manager();
  }

  /** @return every backup disk of the cluster, DataNode by DataNode */
  static List<BackupDisk> backups(LocusMiniCluster cluster) {
    List<BackupDisk> backups = new ArrayList<>();
    for (BackupDiskPowerManager manager : managers(cluster)) {
      for (BackupDisk disk : manager.disks()) {
        if (disk.backup()) {
          backups.add(disk);
        }
      }
    }
    return backups;
  }
}
