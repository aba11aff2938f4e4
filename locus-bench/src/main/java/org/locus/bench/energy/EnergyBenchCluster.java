package org.locus.bench.energy;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.locus.bench.run.BenchCluster;
import org.locus.bench.run.ClusterRecipe;
import org.locus.bench.run.EmbeddedCluster;
import org.locus.bench.run.ForwardingBenchCluster;
import org.locus.bench.run.NetnsCluster;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.HotScratchSpace;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.datanode.EnergyMetricsInfo;
import org.locus.energy.datanode.EnergyMetricsSource;
import org.locus.netns.SiteConfiguration;

/**
 * One cluster of the energy bench or demo in one of its set-ups on the same hardware (per node
 * one primary disk and one backup volume, a 3-drive RAID-5 array as in seed §4.3.3, simulated
 * with the Barracuda datasheet): native HDFS (stock placement, every disk always spinning,
 * energy accounted only), energy-efficient HDFS with the seed's fixed timeout, the same with
 * wake-up prediction, and the same with write off-loading.
 *
 * <p>A set-up is one {@link ClusterRecipe} ({@link #recipe}), started embedded
 * ({@link EmbeddedCluster}: every DataNode in this JVM, whose power manager's accounts are read
 * from the metrics source it publishes here) or netns ({@link NetnsCluster}: every daemon a
 * stock process in its own network namespace, loading the Locus jars from the dist bundle as an
 * operator's cluster does, each DataNode's accounts read over its {@code /jmx}, {@link
 * JmxDiskEnergyReader}). Disks are the simulated datasheet model on both (this host has no
 * spinning disk): figures are modelled. What this class adds to the started cluster is the
 * set-up's primary-only scratch space and the reading of the accounts.
 */
public final class EnergyBenchCluster extends ForwardingBenchCluster
    implements EnergyBenchTarget {
  public static final int NODES = 3;
  /** Block size of the demo's small corpus. */
  public static final long DEMO_BLOCK_SIZE = 256 * 1024;
  public static final String SPINDLES = "1,3";
  /** Size of each volume's disk image on a netns cluster (sparse). */
  static final long DISK_BYTES = 4L << 30;
  /** Memory of each netns node (cgroup): the DataNode, the NodeManager and a job's containers. */
  static final long NODE_MEMORY_BYTES = 3L << 30;

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

  /** The embedded cluster whose DataNodes publish their accounts here; null on netns. */
  private final EmbeddedCluster embedded;
  private final PrintStream err;
  private final JmxDiskEnergyReader reader = new JmxDiskEnergyReader();
  private DistributedFileSystem fs;

  private EnergyBenchCluster(BenchCluster cluster, EmbeddedCluster embedded, PrintStream err) {
    super(cluster);
    this.embedded = embedded;
    this.err = err;
  }

  /**
   * @param blockSize HDFS block size
   * @param standbyTimeoutMillis the backups' idle timeout, also their least time up after a
   *     spin-up; it must outlast the gap between a predicted wake and the output it is for
   * @param err where a failure to close the client is reported
   * @return the set-up on an embedded cluster in {@code dir}, up and serving
   */
  public static EnergyBenchCluster embedded(File dir, Setup setup, long blockSize,
      long standbyTimeoutMillis, PrintStream err) throws IOException {
    EmbeddedCluster cluster = EmbeddedCluster.start(dir,
        recipe(setup, blockSize, standbyTimeoutMillis));
    return setUp(new EnergyBenchCluster(cluster, cluster, err), setup, "the embedded cluster",
        "");
  }

  /**
   * @param home the Locus checkout the dist bundle is written from
   * @param err where the cluster's start is reported
   * @return the set-up on a netns cluster in {@code dir}, up and serving
   * @see #embedded
   */
  public static EnergyBenchCluster netns(File dir, Setup setup, long blockSize,
      long standbyTimeoutMillis, File home, PrintStream err) throws IOException {
    NetnsCluster cluster = NetnsCluster.start(dir,
        recipe(setup, blockSize, standbyTimeoutMillis), setup.label, home, err);
    return setUp(new EnergyBenchCluster(cluster, null, err), setup, "the netns cluster",
        "; see " + new File(cluster.directory().root(), "logs"));
  }

  /** Gives a started cluster its set-up's scratch space; stops it when that fails. */
  private static EnergyBenchCluster setUp(EnergyBenchCluster bench, Setup setup, String what,
      String logs) throws IOException {
    try {
      if (setup != Setup.NATIVE) {
        HotScratchSpace.apply(bench.fileSystem(), bench.conf());
      }
    } catch (Exception e) {
      bench.close();
      throw new IOException(what + " for " + setup.label + " did not start (" + e.getMessage()
          + ")" + logs, e);
    }
    return bench;
  }

  /**
   * @return a set-up as the same recipe on every kind of cluster: {@link #NODES} nodes with its
   *     {@link #volumes} and {@link #keys}; the node memory and disk size apply on netns only
   */
  static ClusterRecipe recipe(Setup setup, long blockSize, long standbyTimeoutMillis) {
    return ClusterRecipe.builder(NODES)
        .volumes(volumes(setup))
        .nodeMemory(NODE_MEMORY_BYTES)
        .diskSize(DISK_BYTES)
        .setAll(keys(setup, blockSize, standbyTimeoutMillis))
        .build();
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

  /** @return a client of the cluster's HDFS, closed with the cluster */
  public DistributedFileSystem fileSystem() throws IOException {
    if (fs == null) {
      fs = (DistributedFileSystem) FileSystem.newInstance(FileSystem.getDefaultUri(conf()),
          conf());
    }
    return fs;
  }

  /** @return every disk's account now, keyed by host and volume */
  @Override
  public Map<String, DiskEnergy> accounts() throws IOException {
    List<DiskEnergy> disks = embedded != null ? publishedHere(embedded.dataNodes())
        : readOverJmx();
    Map<String, DiskEnergy> accounts = new HashMap<>();
    for (DiskEnergy d : disks) {
      accounts.put(d.host() + d.volume(), d);
    }
    return accounts;
  }

  /** @return the accounts the power managers of {@code dataNodes} publish in this JVM */
  private static List<DiskEnergy> publishedHere(List<DataNode> dataNodes) {
    List<DiskEnergy> disks = new ArrayList<>();
    for (DataNode dn : dataNodes) {
      EnergyMetricsSource source = (EnergyMetricsSource) DefaultMetricsSystem.instance()
          .getSource(EnergyMetricsInfo.sourceName(dn.getDisplayName()));
      if (source != null) {
        disks.addAll(source.accounts());
      }
    }
    return disks;
  }

  /**
   * Reads the accounts as they are now over every DataNode's {@code /jmx}, which serves values
   * cached for one metrics period and refreshes them on a read that comes a period or more
   * after the last refresh, so the read waits that long first. Without it a workload shorter
   * than the period (stock 10 s) could read the same cached values before and after, and count
   * no energy.
   */
  private List<DiskEnergy> readOverJmx() throws IOException {
    try {
      Thread.sleep(SiteConfiguration.METRICS_PERIOD_SECONDS * 1000L + 100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for fresh /jmx values", e);
    }
    return reader.read(fileSystem());
  }

  @Override
  public int disks() {
    return 2 * NODES;
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
    super.close();
  }
}
