package org.locus.bench.energy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.locus.energy.accounting.DiskEnergy;

/**
 * A cluster the energy bench runs its workloads on and reads the disks' energy accounts from
 * ({@link EnergyBenchCluster}, embedded or netns), and the waits before a workload, the same on
 * every kind of cluster.
 */
public interface EnergyBenchTarget extends AutoCloseable {
  /** @return a client configuration of the cluster (HDFS and YARN) */
  Configuration conf();

  /** @return every disk's account now, keyed by host and volume */
  Map<String, DiskEnergy> accounts() throws IOException;

  /** @return how many disks the cluster has (two per node) */
  int disks();

  @Override
  void close();

  /** @return the accounts of the interval between two readings */
  static List<DiskEnergy> between(Map<String, DiskEnergy> before,
      Map<String, DiskEnergy> after) {
    List<DiskEnergy> interval = new ArrayList<>();
    after.forEach((key, a) -> {
      DiskEnergy b = before.get(key);
      interval.add(b == null ? a : a.minus(b));
    });
    return interval;
  }

  /** Waits until every backup disk is in standby, up to {@code millis}; false on timeout. */
  default boolean awaitBackupsInStandby(long millis) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    while (System.nanoTime() < deadline) {
      Map<String, DiskEnergy> now = accounts();
      if (now.size() == disks() && now.values().stream()
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
  default boolean awaitQuietDisks(long quietMillis, long millis)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    Map<String, DiskEnergy> previous = accounts();
    while (System.nanoTime() < deadline) {
      Thread.sleep(quietMillis);
      Map<String, DiskEnergy> now = accounts();
      boolean quiet = now.size() == disks();
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
}
