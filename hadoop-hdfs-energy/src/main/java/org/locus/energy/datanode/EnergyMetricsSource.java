package org.locus.energy.datanode;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.accounting.EnergyLedger;
import org.locus.energy.datanode.offload.WriteOffloading;
import org.locus.energy.disk.DiskPowerState;

/**
 * metrics2 source of one DataNode's disks: one record per disk, tagged with its volume, its
 * role (primary / backup) and whether it is power-managed, with state residency (ms), energy
 * (J), the always-spinning baseline energy (J), spin-ups and the spin-up time accesses waited
 * for, and the idle time after which the disk now spins down; then one node record with the
 * predictor's wake-ups, the primary-volume failures and the write off-loading counts. Seen over JMX as {@code Hadoop:service=DataNode,name=LocusEnergy-<host>-<port>} and by
 * any configured sink.
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
        collector.addRecord("LocusDisk")
            .setContext("dfs")
            .tag(Interns.info("Host", "DataNode host"), manager.host())
            .tag(Interns.info("Volume", "volume directory"), disk.name())
            .tag(Interns.info("Device", "block device"), disk.device().devicePath())
            .tag(Interns.info("Role", "primary or backup"), disk.backup() ? "backup" : "primary")
            .tag(Interns.info("State", "current power state"), disk.state().name())
            .addGauge(Interns.info("ActiveMillis", "time transferring"),
                s.residencyMillis().get(DiskPowerState.ACTIVE))
            .addGauge(Interns.info("IdleMillis", "time spinning idle"),
                s.residencyMillis().get(DiskPowerState.IDLE))
            .addGauge(Interns.info("StandbyMillis", "time in standby"),
                s.residencyMillis().get(DiskPowerState.STANDBY))
            .addGauge(Interns.info("WakingMillis", "time spinning up"),
                s.residencyMillis().get(DiskPowerState.WAKING))
            .addGauge(Interns.info("EnergyJoules", "energy from state residency"), s.joules())
            .addGauge(Interns.info("BaselineJoules", "energy if always spinning"),
                s.baselineJoules())
            .addCounter(Interns.info("SpinUps", "spin-ups"), s.spinUps())
            .addCounter(Interns.info("DemandStallMillis", "spin-up time accesses waited"),
                s.demandStallMillis())
            .addGauge(Interns.info("SpinDownAfterMillis",
                "idle time after which the disk goes to standby now (policy's choice)"),
                disk.spinDownAfterMillis());
      }
      // last, so the disks stay records 0..n-1 in the flattened JMX view
      WriteOffloading offloading = manager.offloading();
      collector.addRecord("LocusEnergyNode")
          .setContext("dfs")
          .tag(Interns.info("Host", "DataNode host"), manager.host())
          .addCounter(Interns.info("PredictedWakes",
              "times the predictor woke this node's backups"), manager.predictedWakes())
          .addCounter(Interns.info("PrimaryFailures", "primary volumes failed"),
              manager.primaryFailures())
          .addGauge(Interns.info("StagedReplicas",
              "replicas staged on a primary volume for a sleeping backup"),
              offloading == null ? 0 : offloading.stagedReplicas())
          .addCounter(Interns.info("OffloadedReplicas",
              "replicas written to a primary volume instead of a sleeping backup"),
              offloading == null ? 0 : offloading.offloadedReplicas())
          .addCounter(Interns.info("MovedReplicas", "staged replicas moved to their backup"),
              offloading == null ? 0 : offloading.movedReplicas());
    }
  }
}
