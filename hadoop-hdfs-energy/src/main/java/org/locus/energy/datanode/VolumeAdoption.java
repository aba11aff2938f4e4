package org.locus.energy.datanode;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.EnergySettings;
import org.locus.energy.disk.BlockDevice;
import org.locus.energy.disk.DiskPowerBackend;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.disk.UnsupportedDeviceException;
import org.locus.energy.policy.FixedTimeoutPolicy;
import org.locus.energy.policy.IdleGapHistoryPolicy;
import org.locus.energy.policy.SpinDownPolicy;
import org.locus.energy.policy.WriteIntensityGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one {@link BackupDisk} per volume of a DataNode's dataset: adopts a volume the first
 * time it is seen (backups, {@code ARCHIVE}, power-managed; primaries only accounted), feeds
 * each disk the I/O its volume did since the last refresh, and reports primary volumes that left
 * the dataset (failed). A backup that did not spin up keeps its disk (and its failure, for the
 * metrics) once its volume has left the dataset; if that volume comes back (hot swap, {@code
 * hdfs dfsadmin -reconfig}) it is adopted afresh. Called from the power manager's one thread.
 */
final class VolumeAdoption {
  private static final Logger LOG = LoggerFactory.getLogger(VolumeAdoption.class);

  private final EnergySettings settings;
  private final DiskPowerBackend backend;
  private final Map<String, BackupDisk> disks = new LinkedHashMap<>();
  private final Map<String, VolumeIoCounters> lastCounters = new LinkedHashMap<>();
  private final Set<String> primaryStorageIds = new HashSet<>();
  /** Storage IDs of disks that did not spin up and whose volume has left the dataset since. */
  private final Set<String> removedAfterSpinUpFailure = new HashSet<>();

  VolumeAdoption(EnergySettings settings, DiskPowerBackend backend) {
    this.settings = settings;
    this.backend = backend;
  }

  /**
   * Adopts new volumes and ticks every disk with its I/O since the last refresh.
   *
   * @return the volume directories of primary volumes that are no longer in the dataset
   */
  List<String> refresh(FsDatasetSpi<?> dataset, long now) {
    Set<String> present = new HashSet<>();
    try (FsDatasetSpi.FsVolumeReferences volumes = dataset.getFsVolumeReferences()) {
      for (FsVolumeSpi volume : volumes) {
        String id = volume.getStorageID();
        present.add(id);
        BackupDisk disk = disks.get(id);
        VolumeIoCounters counters = VolumeIoCounters.of(volume);
        if (disk == null || removedAfterSpinUpFailure.remove(id)) {
          disks.put(id, adopt(volume, now));
          lastCounters.put(id, counters);
          continue;
        }
        VolumeIoCounters last = lastCounters.put(id, counters);
        disk.tick(now, counters.reads() - last.reads(), counters.writes() - last.writes());
      }
    } catch (IOException e) {
      LOG.warn("Cannot release volume references: {}", e.getMessage());
    }
    for (BackupDisk disk : disks.values()) {
      if (disk.spinUpFailure() != null && !present.contains(disk.storageId())) {
        removedAfterSpinUpFailure.add(disk.storageId());
      }
    }
    List<String> lost = new ArrayList<>();
    for (String id : List.copyOf(primaryStorageIds)) {
      if (!present.contains(id)) {
        primaryStorageIds.remove(id);
        lost.add(disks.get(id).device().volumeDir().getPath());
      }
    }
    return lost;
  }

  private BackupDisk adopt(FsVolumeSpi volume, long now) {
    File dir = new File(volume.getBaseURI());
    boolean backup = volume.getStorageType() == StorageType.ARCHIVE;
    String reason = null;
    if (!backup) {
      primaryStorageIds.add(volume.getStorageID());
      reason = "primary volume (always spinning)";
    } else if (settings.accountingOnly()) {
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
    DiskPowerProfile profile = backend.profile().times(settings.spindles(disks.size()));
    BackupDisk disk = new BackupDisk(dir.getPath(), backup, volume.getStorageID(), device,
        backend, profile, spinDownPolicy(),
        new WriteIntensityGuard(settings.writeGuardOpsPerSecond(),
            settings.writeGuardQuietMillis(), 1000),
        settings.minResidencyMillis(),
        settings.manualCommand() == EnergySettings.ManualCommand.SLEEP, reason);
    disk.start(now);
    LOG.info("Volume {} [{}] on {}: {}", dir, volume.getStorageType(), device.devicePath(),
        reason == null ? "power-managed" : reason);
    return disk;
  }

  private SpinDownPolicy spinDownPolicy() {
    switch (settings.spinDownPolicy()) {
      case HISTORY:
        return new IdleGapHistoryPolicy(settings.standbyTimeoutMillis(),
            2 * settings.pollIntervalMillis(), backend.profile());
      default:
        return new FixedTimeoutPolicy(settings.standbyTimeoutMillis());
    }
  }

  /** @return the disks in adoption order */
  List<BackupDisk> disks() {
    return new ArrayList<>(disks.values());
  }

  boolean isEmpty() {
    return disks.isEmpty();
  }
}
