package org.locus.energy.datanode;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsSource;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.accounting.EnergyLedger;
import org.locus.energy.datanode.offload.WriteOffloading;
import org.locus.energy.disk.DiskPowerState;

/**
 * metrics2 source of one DataNode's disks: one record per disk, tagged with its volume, its
 * role (primary / backup) and whether it is power-managed, with state residency (ms), energy
 * (J), the always-spinning baseline energy (J), spin-ups and the spin-up time accesses waited
 * for, the idle time after which the disk now spins down, and whether it did not spin up when
 * woken; then one node record with the predictor's wake-ups, the primary-volume failures, the
 * backups that did not spin up and the write off-loading counts. Seen over
 * JMX as {@code Hadoop:service=DataNode,name=LocusEnergy-<host>-<port>} and by any configured
 * sink; the names are {@link EnergyMetricsInfo}'s.
 */
public class EnergyMetricsSource implements MetricsSource {
  private final BackupDiskPowerManager manager;

  EnergyMetricsSource(BackupDiskPowerManager manager) {
    this.manager = manager;
  }

  /** @return the power manager this source reports on */
  public BackupDiskPowerManager manager() {
    return manager;
  }

  /** @return each disk's account now, as {@link DiskEnergy} values */
  public List<DiskEnergy> accounts() {
    List<DiskEnergy> accounts = new ArrayList<>();
    synchronized (manager) {
      for (BackupDisk disk : manager.disks()) {
        EnergyLedger.Snapshot s = disk.ledger().snapshot();
        accounts.add(new DiskEnergy(manager.host(), disk.name(), disk.backup(),
            disk.state().name(), s.residencyMillis().get(DiskPowerState.ACTIVE),
            s.residencyMillis().get(DiskPowerState.IDLE),
            s.residencyMillis().get(DiskPowerState.STANDBY),
            s.residencyMillis().get(DiskPowerState.WAKING), s.joules(), s.baselineJoules(),
            s.spinUps(), s.demandStallMillis()));
      }
    }
    return accounts;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    synchronized (manager) {
      for (BackupDisk disk : manager.disks()) {
        EnergyLedger.Snapshot s = disk.ledger().snapshot();
        collector.addRecord(EnergyMetricsInfo.DISK_RECORD)
            .setContext("dfs")
            .tag(EnergyMetricsInfo.Host, manager.host())
            .tag(EnergyMetricsInfo.Volume, disk.name())
            .tag(EnergyMetricsInfo.Device, disk.device().devicePath())
            .tag(EnergyMetricsInfo.Role,
                disk.backup() ? EnergyMetricsInfo.BACKUP : EnergyMetricsInfo.PRIMARY)
            .tag(EnergyMetricsInfo.State, disk.state().name())
            .addGauge(EnergyMetricsInfo.ActiveMillis,
                s.residencyMillis().get(DiskPowerState.ACTIVE))
            .addGauge(EnergyMetricsInfo.IdleMillis, s.residencyMillis().get(DiskPowerState.IDLE))
            .addGauge(EnergyMetricsInfo.StandbyMillis,
                s.residencyMillis().get(DiskPowerState.STANDBY))
            .addGauge(EnergyMetricsInfo.WakingMillis,
                s.residencyMillis().get(DiskPowerState.WAKING))
            .addGauge(EnergyMetricsInfo.EnergyJoules, s.joules())
            .addGauge(EnergyMetricsInfo.BaselineJoules, s.baselineJoules())
            .addCounter(EnergyMetricsInfo.SpinUps, s.spinUps())
            .addCounter(EnergyMetricsInfo.DemandStallMillis, s.demandStallMillis())
            .addGauge(EnergyMetricsInfo.SpinDownAfterMillis, disk.spinDownAfterMillis())
            .addGauge(EnergyMetricsInfo.SpinUpFailed, disk.spinUpFailure() == null ? 0 : 1);
      }
      // last, so the disks stay records 0..n-1 in the flattened JMX view
      WriteOffloading offloading = manager.offloading();
      collector.addRecord(EnergyMetricsInfo.NODE_RECORD)
          .setContext("dfs")
          .tag(EnergyMetricsInfo.Host, manager.host())
          .addCounter(EnergyMetricsInfo.PredictedWakes, manager.predictedWakes())
          .addCounter(EnergyMetricsInfo.PrimaryFailures, manager.primaryFailures())
          .addCounter(EnergyMetricsInfo.SpinUpFailures, manager.spinUpFailures())
          .addGauge(EnergyMetricsInfo.StagedReplicas,
              offloading == null ? 0 : offloading.stagedReplicas())
          .addCounter(EnergyMetricsInfo.OffloadedReplicas,
              offloading == null ? 0 : offloading.offloadedReplicas())
          .addCounter(EnergyMetricsInfo.MovedReplicas,
              offloading == null ? 0 : offloading.movedReplicas());
    }
  }
}
