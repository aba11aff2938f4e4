package org.locus.bench.energy;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.energy.EnergyBenchCluster.Setup;
import org.locus.bench.run.ClusterRecipe;
import org.locus.bench.run.NetnsCluster;
import org.locus.energy.HotScratchSpace;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.netns.SiteConfiguration;

/**
 * One netns cluster of the energy bench: the same set-ups, keys and volumes as
 * {@link EnergyBenchCluster}, but every NameNode, DataNode, ResourceManager and NodeManager a
 * stock daemon in its own network namespace, loading the Locus jars from the dist bundle as an
 * operator's cluster does. Each DataNode process runs its own power manager; the accounts are
 * read from every DataNode's {@code /jmx} ({@link JmxDiskEnergyReader}). Disks are still the
 * simulated datasheet model (this host has no spinning disk): figures are modelled.
 */
public final class NetnsEnergyBenchCluster implements EnergyBenchTarget {
  /** Size of each volume's disk image (sparse). */
  static final long DISK_BYTES = 4L << 30;
  /** Memory of each node (cgroup): the DataNode, the NodeManager and a job's containers. */
  static final long NODE_MEMORY_BYTES = 3L << 30;

  private final NetnsCluster cluster;
  private final PrintStream err;
  private final JmxDiskEnergyReader reader = new JmxDiskEnergyReader();
  private DistributedFileSystem fs;

  /**
   * @param home the Locus checkout the dist bundle is written from
   * @param err where the cluster's start is reported
   */
  public NetnsEnergyBenchCluster(File directory, Setup setup, long blockSize,
      long standbyTimeoutMillis, File home, PrintStream err) throws IOException {
    this.err = err;
    this.cluster = NetnsCluster.start(directory, ClusterRecipe.builder(EnergyBenchCluster.NODES)
        .volumes(EnergyBenchCluster.volumes(setup))
        .nodeMemory(NODE_MEMORY_BYTES)
        .diskSize(DISK_BYTES)
        .setAll(EnergyBenchCluster.keys(setup, blockSize, standbyTimeoutMillis))
        .build(), setup.label, home, err);
    try {
      if (setup != Setup.NATIVE) {
        HotScratchSpace.apply(fileSystem(), conf());
      }
    } catch (Exception e) {
      close();
      throw new IOException("the netns cluster for " + setup.label + " did not start ("
          + e.getMessage() + "); see " + new File(cluster.directory().root(), "logs"), e);
    }
  }

  private DistributedFileSystem fileSystem() throws IOException {
    if (fs == null) {
      fs = (DistributedFileSystem) FileSystem.newInstance(FileSystem.getDefaultUri(conf()),
          conf());
    }
    return fs;
  }

  @Override
  public Configuration conf() {
    return cluster.conf();
  }

  /**
   * Reads the accounts as they are now: {@code /jmx} serves values cached for one metrics
   * period, and refreshes them on a read that comes a period or more after the last refresh,
   * so the read waits that long first. Without it a workload shorter than the period (stock
   * 10 s) could read the same cached values before and after, and count no energy.
   */
  @Override
  public Map<String, DiskEnergy> accounts() throws IOException {
    try {
      Thread.sleep(SiteConfiguration.METRICS_PERIOD_SECONDS * 1000L + 100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for fresh /jmx values", e);
    }
    Map<String, DiskEnergy> accounts = new HashMap<>();
    for (DiskEnergy d : reader.read(fileSystem())) {
      accounts.put(d.host() + d.volume(), d);
    }
    return accounts;
  }

  @Override
  public int disks() {
    return 2 * EnergyBenchCluster.NODES;
  }

  @Override
  public void close() {
    if (fs != null) {
      try {
        fs.close();
      } catch (IOException e) {
        err.println("[bench energy] closing the client: " + e.getMessage());
      }
    }
    cluster.close();
  }
}
