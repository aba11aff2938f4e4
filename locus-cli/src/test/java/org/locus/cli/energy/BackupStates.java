package org.locus.cli.energy;

import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.datanode.EnergyMetricsInfo;
import org.locus.energy.datanode.EnergyMetricsSource;
import org.locus.kit.LocusMiniCluster;

/** Counts a test cluster's backup disks by power state, from the power managers' sources. */
final class BackupStates {
  private final LocusMiniCluster cluster;

  BackupStates(LocusMiniCluster cluster) {
    this.cluster = cluster;
  }

  long count(String state) {
    long n = 0;
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      EnergyMetricsSource source = (EnergyMetricsSource) DefaultMetricsSystem.instance()
          .getSource(EnergyMetricsInfo.sourceName(dn.getDisplayName()));
      if (source != null) {
        for (DiskEnergy d : source.accounts()) {
          if (d.backup() && d.state().equals(state)) {
            n++;
          }
        }
      }
    }
    return n;
  }
}
