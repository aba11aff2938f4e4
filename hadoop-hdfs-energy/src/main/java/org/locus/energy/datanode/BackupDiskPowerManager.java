package org.locus.energy.datanode;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.util.ServicePlugin;
import org.apache.hadoop.util.Time;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.EnergySettings;
import org.locus.energy.datanode.offload.WriteOffloading;
import org.locus.energy.disk.DiskPowerBackend;
import org.locus.energy.disk.DiskPowerState;
import org.locus.energy.disk.HdparmDiskBackend;
import org.locus.energy.disk.MountTable;
import org.locus.energy.disk.SimulatedDiskBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk power manager (seed 000 §4.3.2), a DataNode service plug-in
 * ({@code dfs.datanode.plugins}). This class is its lifecycle only: Hadoop instantiates it with
 * the DataNode's configuration ({@link #setConf}, where every energy key is parsed and checked
 * once, so a bad value stops the DataNode's start-up with a message naming the key);
 * {@link #start(Object)} receives the DataNode and starts one daemon thread that, every poll
 * interval, lets {@link VolumeAdoption} advance one {@link BackupDisk} per volume,
 * {@link WakeSources} wake backups ahead of need and {@link AwakeBackupsAnnouncer} tell the
 * NameNode which backups spin; with write off-loading it tells the dataset which backups sleep
 * and lets it move staged replicas to the awake ones; {@link #stop()} ends it. Energy is published
 * as the metrics2 source {@code LocusEnergy-<host>-<port>}. A failing command or an unsupported
 * device never stops the DataNode. A backup that did not spin up when woken is handed to the
 * DataNode as a failed volume (see {@link #takeFailedDisksOutOfService}).
 */
public class BackupDiskPowerManager implements ServicePlugin, Configurable {
  private static final Logger LOG = LoggerFactory.getLogger(BackupDiskPowerManager.class);

  private Configuration conf;
  private EnergySettings settings;
  private DataNode dataNode;
  private DiskPowerBackend backend;
  private VolumeAdoption volumes;
  private WakeSources wakeSources;
  private AwakeBackupsAnnouncer announcer;
  private ScheduledExecutorService ticker;
  private String sourceName;
  private WriteOffloading offloading;
  /** Storage IDs of the backups in standby or spinning up, for the transfer threads. */
  private volatile Set<String> sleepingBackups = Set.of();
  /** Disks that did not spin up and were handed to the DataNode as failed volumes. */
  private final Set<BackupDisk> outOfService = new HashSet<>();

  /** Parses and validates every energy key; a bad value fails the DataNode's start-up. */
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
    dataNode = (DataNode) service;
    if (settings == null) {
      setConf(dataNode.getConf());
    }
    backend = createBackend(settings);
    if (conf.getInt("dfs.datanode.fileio.profiling.sampling.percentage", 0) < 100) {
      LOG.warn("dfs.datanode.fileio.profiling.sampling.percentage is below 100: per-volume "
          + "I/O is sampled, so an access to a sleeping backup may go unseen; set it to 100");
    }
    volumes = new VolumeAdoption(settings, backend);
    wakeSources = new WakeSources(dataNode, settings, this::wake);
    if (settings.fastNode()) {
      announcer = new AwakeBackupsAnnouncer(dataNode.getConf(), settings.awakeDir());
    }
    long interval = settings.pollIntervalMillis();
    ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "locus-energy-power-manager");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleWithFixedDelay(this::tickSafely, interval, interval, TimeUnit.MILLISECONDS);
    LOG.info("Backup disk power manager started with the {} backend", backend.name());
  }

  /**
   * The backend {@link EnergyConfigKeys#BACKEND} names. A subclass may override it, e.g. a test
   * that runs the real hdparm backend's commands on volumes mapped to devices of its own.
   */
  protected DiskPowerBackend createBackend(EnergySettings settings) {
    if (settings.backend() == EnergySettings.Backend.SIMULATED) {
      return new SimulatedDiskBackend(settings.driveProfile());
    }
    try {
      return new HdparmDiskBackend(settings, MountTable.ofThisProcess());
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /proc/self/mountinfo for "
          + EnergyConfigKeys.BACKEND + "=hdparm", e);
    }
  }

  private void tickSafely() {
    try {
      tick(Time.monotonicNow());
      takeFailedDisksOutOfService();
    } catch (RuntimeException e) {
      LOG.error("Power manager tick failed; retrying next interval", e);
    }
  }

  private synchronized void tick(long now) {
    FsDatasetSpi<?> dataset = dataNode.getFSDataset();
    if (dataset == null) {
      return;
    }
    List<String> lostPrimaries = volumes.refresh(dataset, now);
    publishSleepingBackups();
    if (offloading == null && dataset instanceof WriteOffloading) {
      offloading = (WriteOffloading) dataset;
      offloading.attach(id -> sleepingBackups.contains(id));
      LOG.info("Write off-loading attached: writes to sleeping backups are staged");
    }
    if (offloading != null) {
      offloading.moveToAwakeBackups();
    }
    // registered once the volumes are adopted: JMX caches a source's first snapshot for a
    // metrics period, and that snapshot must already list the disks
    registerSourceOnce();
    if (sourceName != null) {
      wakeSources.poll(now, lostPrimaries, host());
      if (announcer != null) {
        announcer.poll(now, volumes.disks(), host());
      }
    }
  }

  /**
   * Hands each backup that did not spin up since the last tick to the DataNode as a failed
   * volume, through the path Hadoop takes for a volume that fails its disk check
   * ({@code DataNode#handleVolumeFailures}, public though marked for tests): the dataset drops
   * the volume and its replicas, so a reader asking this node for one gets an error at once and
   * tries the block's next location; the NameNodes get an error report and a full block report,
   * stop offering those replicas and re-replicate them; {@code
   * dfs.datanode.failed.volumes.tolerated} decides whether the DataNode keeps running. Called
   * on the ticker thread outside this manager's lock: removing a volume waits for the reads
   * still holding it.
   */
  private void takeFailedDisksOutOfService() {
    Set<String> failedIds = new HashSet<>();
    synchronized (this) {
      for (BackupDisk disk : volumes.disks()) {
        if (disk.spinUpFailure() != null && outOfService.add(disk)) {
          failedIds.add(disk.storageId());
        }
      }
    }
    if (failedIds.isEmpty()) {
      return;
    }
    Set<FsVolumeSpi> failed = new HashSet<>();
    try (FsDatasetSpi.FsVolumeReferences references =
        dataNode.getFSDataset().getFsVolumeReferences()) {
      for (FsVolumeSpi volume : references) {
        if (failedIds.contains(volume.getStorageID())) {
          failed.add(volume);
        }
      }
    } catch (IOException e) {
      LOG.warn("Cannot release volume references: {}", e.getMessage());
    }
    dataNode.handleVolumeFailures(failed);
  }

  private void publishSleepingBackups() {
    Set<String> sleeping = new HashSet<>();
    for (BackupDisk disk : volumes.disks()) {
      if (disk.backup() && (disk.state() == DiskPowerState.STANDBY
          || disk.state() == DiskPowerState.WAKING)) {
        sleeping.add(disk.storageId());
      }
    }
    sleepingBackups = Set.copyOf(sleeping);
  }

  /** @return the dataset's write off-loading, or null when the DataNode does not stage writes */
  public synchronized WriteOffloading offloading() {
    return offloading;
  }

  private void registerSourceOnce() {
    if (sourceName != null || volumes.isEmpty() || dataNode.getXferPort() <= 0) {
      return;
    }
    sourceName = EnergyMetricsInfo.sourceName(dataNode.getDisplayName());
    DefaultMetricsSystem.instance().register(sourceName,
        "Locus energy-efficient HDFS: per-disk power states and energy",
        new EnergyMetricsSource(this));
  }

  /** Wakes every power-managed backup disk of this DataNode. */
  public synchronized void wakeAll(String reason, long now) {
    wake(reason, Set.of(), now);
  }

  /** Wakes the backups whose storage IDs are listed, or every backup when none is. */
  private synchronized void wake(String reason, Set<String> storageIds, long now) {
    for (BackupDisk disk : volumes.disks()) {
      if (disk.backup() && (storageIds.isEmpty() || storageIds.contains(disk.storageId()))) {
        disk.wake(now, reason);
      }
    }
  }

  /** @return how many times the predictor has woken this node's backups */
  public synchronized long predictedWakes() {
    return wakeSources.predictedWakes();
  }

  /** @return how many backups of this DataNode did not spin up and were taken out of service */
  public synchronized long spinUpFailures() {
    return outOfService.size();
  }

  /** @return how many primary volumes of this DataNode have failed */
  public synchronized long primaryFailures() {
    return wakeSources.primaryFailures();
  }

  /** @return the disks of this DataNode, primaries and backups, in adoption order */
  public synchronized List<BackupDisk> disks() {
    return volumes.disks();
  }

  /** @return the DataNode's host name */
  public String host() {
    // the display name is host:port from the DataNode's own configuration, known before the
    // DataNode has registered with a NameNode (getDatanodeId() is null until then)
    String name = dataNode.getDisplayName();
    return name.substring(0, name.lastIndexOf(':'));
  }

  /** @return the name of this manager's metrics source, or null before it is registered */
  public synchronized String sourceName() {
    return sourceName;
  }

  public DiskPowerBackend backend() {
    return backend;
  }

  /** @return the settings parsed from the DataNode's configuration */
  public EnergySettings settings() {
    return settings;
  }

  @Override
  public void stop() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    synchronized (this) {
      if (sourceName != null) {
        DefaultMetricsSystem.instance().unregisterSource(sourceName);
      }
      if (wakeSources != null) {
        wakeSources.close();
      }
      if (announcer != null) {
        announcer.close();
      }
    }
  }

  @Override
  public void close() {
    stop();
  }
}
