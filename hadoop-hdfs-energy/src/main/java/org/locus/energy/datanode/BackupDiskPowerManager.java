package org.locus.energy.datanode;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.util.ServicePlugin;
import org.apache.hadoop.util.Time;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.disk.BlockDevice;
import org.locus.energy.disk.DiskPowerBackend;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.disk.HdparmDiskBackend;
import org.locus.energy.disk.MountTable;
import org.locus.energy.disk.SimulatedDiskBackend;
import org.locus.energy.disk.UnsupportedDeviceException;
import org.locus.energy.policy.FixedTimeoutPolicy;
import org.locus.energy.policy.IdleGapHistoryPolicy;
import org.locus.energy.policy.PrimaryDrainPredictor;
import org.locus.energy.policy.SpinDownPolicy;
import org.locus.energy.policy.WriteIntensityGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk power manager (seed 000 §4.3.2), a DataNode service plug-in
 * ({@code dfs.datanode.plugins}). Every poll interval it reads each volume's I/O counters,
 * advances one {@link BackupDisk} per volume — backups ({@code ARCHIVE}) power-managed,
 * primaries ({@code DISK}) only accounted — and wakes every backup when a primary volume
 * fails (seed §4.5: "backup disks may be waked up if any primary disk fails"). Energy is
 * published as the metrics2 source {@code LocusEnergy-<host>-<port>}.
 *
 * <p>Lifecycle: {@link #start(Object)} receives the DataNode and starts one daemon thread;
 * volumes are adopted once the dataset exists; {@link #stop()} ends the thread and unregisters
 * the source. A failing command or an unsupported device never stops the DataNode.
 */
public class BackupDiskPowerManager implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(BackupDiskPowerManager.class);
  static final String SOURCE_PREFIX = "LocusEnergy-";

  private final Map<String, BackupDisk> disks = new LinkedHashMap<>();
  private final Map<String, VolumeIoCounters> lastCounters = new LinkedHashMap<>();
  private final Set<String> primaryStorageIds = new HashSet<>();
  private DataNode dataNode;
  private Configuration conf;
  private DiskPowerBackend backend;
  private ScheduledExecutorService ticker;
  private String sourceName;
  private long primaryFailures;
  private PrimaryDrainPredictor predictor;
  private PrimaryDataProgress progress;
  private long lastPrimaryBytes = -1;
  private long blockSize;
  private long predictedWakes;
  private WakeRequests wakeRequests;
  private FileSystem fs;
  private long nextWakePoll;

  @Override
  public void start(Object service) {
    dataNode = (DataNode) service;
    conf = dataNode.getConf();
    backend = createBackend(conf);
    if (conf.getInt("dfs.datanode.fileio.profiling.sampling.percentage", 0) < 100) {
      LOG.warn("dfs.datanode.fileio.profiling.sampling.percentage is below 100: per-volume "
          + "I/O is sampled, so an access to a sleeping backup may go unseen; set it to 100");
    }
    if (conf.getBoolean(EnergyConfigKeys.PREDICT_WAKE, EnergyConfigKeys.PREDICT_WAKE_DEFAULT)) {
      blockSize = conf.getLongBytes("dfs.blocksize", 128L << 20);
      long lead = conf.getLong(EnergyConfigKeys.PREDICT_LEAD_MS,
          backend.profile().spinUpMillis());
      if (lead < 0) {
        throw new IllegalArgumentException(EnergyConfigKeys.PREDICT_LEAD_MS
            + " must not be negative, got " + lead);
      }
      predictor = new PrimaryDrainPredictor(blockSize, lead);
      progress = new PrimaryDataProgress(dataNode);
    }
    long interval = conf.getLong(EnergyConfigKeys.POLL_INTERVAL_MS,
        EnergyConfigKeys.POLL_INTERVAL_MS_DEFAULT);
    ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "locus-energy-power-manager");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleWithFixedDelay(this::tickSafely, interval, interval, TimeUnit.MILLISECONDS);
    LOG.info("Backup disk power manager started with the {} backend", backend.name());
  }

  static DiskPowerBackend createBackend(Configuration conf) {
    String name = conf.getTrimmed(EnergyConfigKeys.BACKEND, EnergyConfigKeys.BACKEND_DEFAULT);
    switch (name) {
      case "simulated":
        return new SimulatedDiskBackend(DiskPowerProfile.from(conf));
      case "hdparm":
        try {
          return new HdparmDiskBackend(conf, MountTable.ofThisProcess());
        } catch (IOException e) {
          throw new IllegalStateException("cannot read /proc/self/mountinfo for "
              + EnergyConfigKeys.BACKEND + "=hdparm", e);
        }
      default:
        throw new IllegalArgumentException(EnergyConfigKeys.BACKEND
            + " must be 'simulated' or 'hdparm', got '" + name + "'");
    }
  }

  private void tickSafely() {
    try {
      tick(Time.monotonicNow());
    } catch (RuntimeException e) {
      LOG.error("Power manager tick failed; retrying next interval", e);
    }
  }

  private synchronized void tick(long now) {
    FsDatasetSpi<?> dataset = dataNode.getFSDataset();
    if (dataset == null) {
      return;
    }
    Set<String> present = new HashSet<>();
    try (FsDatasetSpi.FsVolumeReferences volumes = dataset.getFsVolumeReferences()) {
      for (FsVolumeSpi volume : volumes) {
        String id = volume.getStorageID();
        present.add(id);
        BackupDisk disk = disks.get(id);
        VolumeIoCounters counters = VolumeIoCounters.of(volume);
        if (disk == null) {
          disk = adopt(volume, now);
          disks.put(id, disk);
          lastCounters.put(id, counters);
          continue;
        }
        VolumeIoCounters last = lastCounters.put(id, counters);
        disk.tick(now, counters.reads() - last.reads(), counters.writes() - last.writes());
      }
    } catch (IOException e) {
      LOG.warn("Cannot release volume references: {}", e.getMessage());
    }
    // registered once the volumes are adopted: JMX caches a source's first snapshot for a
    // metrics period, and that snapshot must already list the disks
    registerSourceOnce();
    predictWake(now);
    pollWakeRequests(now);
    for (String id : List.copyOf(primaryStorageIds)) {
      if (!present.contains(id)) {
        primaryStorageIds.remove(id);
        primaryFailures++;
        String reason = "primary volume " + disks.get(id).device().volumeDir() + " failed";
        wakeAll(reason, now);
        requestClusterWideWake(reason);
      }
    }
  }

  /** Seed §4.3.3: wake the backups when the last primary block is being fetched. */
  private void predictWake(long now) {
    if (predictor == null || sourceName == null) {
      return;
    }
    long bytesRead = progress.bytesRead();
    if (bytesRead < 0) {
      return;
    }
    long primaryBytes = progress.primaryBytes();
    // a new phase when at least a block of new data arrived; small files written during a
    // job (staging, history) do not restart it
    if (lastPrimaryBytes < 0 || Math.abs(primaryBytes - lastPrimaryBytes) >= blockSize) {
      lastPrimaryBytes = primaryBytes;
      predictor.newPhase(bytesRead);
    } else if (predictor.shouldWake(now, bytesRead, primaryBytes)) {
      predictedWakes++;
      wakeAll("prediction: this node's primary data is drained within the spin-up lead time",
          now);
    }
  }

  /**
   * The replicas of a failed primary's blocks are backups on other nodes, and re-replication
   * reads them: ask every node to wake its backups (through the {@code locus energy wake}
   * channel) instead of letting each read wait for a spin-up.
   */
  private void requestClusterWideWake(String reason) {
    try {
      openClient();
      WakeRequests.request(fs, conf, WakeRequests.ALL);
      LOG.warn("{}: asked every DataNode to wake its backup disks", reason);
    } catch (IOException e) {
      LOG.error("{}: cannot ask other DataNodes to wake their backups: {}", reason,
          e.getMessage());
    }
  }

  private void openClient() throws IOException {
    if (fs == null) {
      fs = FileSystem.newInstance(FileSystem.getDefaultUri(conf), conf);
      wakeRequests = new WakeRequests(conf, System.currentTimeMillis());
    }
  }

  /** {@code locus energy wake}: requests are polled once a second. */
  private void pollWakeRequests(long now) {
    if (now < nextWakePoll) {
      return;
    }
    nextWakePoll = now + 1000;
    try {
      openClient();
      if (wakeRequests.pending(fs, host())) {
        wakeAll("requested with locus energy wake", now);
      }
    } catch (IOException e) {
      LOG.debug("Cannot read wake requests: {}", e.getMessage());
    }
  }

  /** @return how many times the predictor has woken this node's backups */
  public synchronized long predictedWakes() {
    return predictedWakes;
  }

  private BackupDisk adopt(FsVolumeSpi volume, long now) {
    File dir = new File(volume.getBaseURI());
    boolean backup = volume.getStorageType() == StorageType.ARCHIVE;
    String reason = null;
    if (!backup) {
      primaryStorageIds.add(volume.getStorageID());
      reason = "primary volume (always spinning)";
    } else if (conf.getBoolean(EnergyConfigKeys.ACCOUNTING_ONLY,
        EnergyConfigKeys.ACCOUNTING_ONLY_DEFAULT)) {
      reason = EnergyConfigKeys.ACCOUNTING_ONLY + " is true";
    }
    BlockDevice device;
    try {
      device = backend.resolve(dir);
    } catch (UnsupportedDeviceException e) {
      device = new BlockDevice(dir, "unsupported");
      if (reason == null) {
        reason = e.getMessage();
        LOG.warn("Backup volume {} cannot be power-managed and stays spinning: {}", dir,
            e.getMessage());
      }
    } catch (IOException e) {
      device = new BlockDevice(dir, "unknown");
      if (reason == null) {
        reason = "cannot find its device: " + e.getMessage();
        LOG.warn("Backup volume {} stays spinning: {}", dir, reason);
      }
    }
    int[] spindles = conf.getInts(EnergyConfigKeys.SPINDLES_PER_VOLUME);
    int index = disks.size();
    DiskPowerProfile profile = backend.profile()
        .times(index < spindles.length ? Math.max(1, spindles[index]) : 1);
    BackupDisk disk = new BackupDisk(dir.getPath(), backup, device, backend, profile,
        spinDownPolicy(),
        new WriteIntensityGuard(
            conf.getDouble(EnergyConfigKeys.WRITE_GUARD_OPS_PER_SEC,
                EnergyConfigKeys.WRITE_GUARD_OPS_PER_SEC_DEFAULT),
            conf.getLong(EnergyConfigKeys.WRITE_GUARD_QUIET_MS,
                EnergyConfigKeys.WRITE_GUARD_QUIET_MS_DEFAULT), 1000),
        conf.getLong(EnergyConfigKeys.MIN_RESIDENCY_MS,
            EnergyConfigKeys.MIN_RESIDENCY_MS_DEFAULT),
        "sleep".equals(conf.getTrimmed(EnergyConfigKeys.MANUAL_COMMAND,
            EnergyConfigKeys.MANUAL_COMMAND_DEFAULT)),
        reason);
    disk.start(now);
    LOG.info("Volume {} [{}] on {}: {}", dir, volume.getStorageType(), device.devicePath(),
        reason == null ? "power-managed" : reason);
    return disk;
  }

  private SpinDownPolicy spinDownPolicy() {
    long timeout = conf.getLong(EnergyConfigKeys.STANDBY_TIMEOUT_MS,
        EnergyConfigKeys.STANDBY_TIMEOUT_MS_DEFAULT);
    String name = conf.getTrimmed(EnergyConfigKeys.SPINDOWN_POLICY,
        EnergyConfigKeys.SPINDOWN_POLICY_DEFAULT);
    switch (name) {
      case "fixed":
        return new FixedTimeoutPolicy(timeout);
      case "history":
        return new IdleGapHistoryPolicy(timeout, 2 * conf.getLong(
            EnergyConfigKeys.POLL_INTERVAL_MS, EnergyConfigKeys.POLL_INTERVAL_MS_DEFAULT),
            backend.profile());
      default:
        throw new IllegalArgumentException(EnergyConfigKeys.SPINDOWN_POLICY
            + " must be 'fixed' or 'history', got '" + name + "'");
    }
  }

  private void registerSourceOnce() {
    if (sourceName != null || disks.isEmpty() || dataNode.getXferPort() <= 0) {
      return;
    }
    sourceName = SOURCE_PREFIX + dataNode.getDisplayName().replace(':', '-');
    DefaultMetricsSystem.instance().register(sourceName,
        "Locus energy-efficient HDFS: per-disk power states and energy",
        new EnergyMetricsSource(this));
  }

  /** Wakes every power-managed backup disk of this DataNode. */
  public synchronized void wakeAll(String reason, long now) {
    for (BackupDisk disk : disks.values()) {
      disk.wake(now, reason);
    }
  }

  /** @return the disks of this DataNode, primaries and backups, in adoption order */
  public synchronized List<BackupDisk> disks() {
    return new ArrayList<>(disks.values());
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

  /** @return how many primary volumes of this DataNode have failed */
  public synchronized long primaryFailures() {
    return primaryFailures;
  }

  public DiskPowerBackend backend() {
    return backend;
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
      if (fs != null) {
        try {
          fs.close();
        } catch (IOException e) {
          LOG.debug("Closing the wake-request client: {}", e.getMessage());
        }
      }
    }
  }

  @Override
  public void close() {
    stop();
  }
}
