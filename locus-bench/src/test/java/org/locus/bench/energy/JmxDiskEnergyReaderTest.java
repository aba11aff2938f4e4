package org.locus.bench.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.datanode.EnergyMetricsInfo;
import org.locus.energy.datanode.EnergyMetricsSource;
import org.locus.kit.LocusMiniCluster;

/**
 * The bench's JMX reader against what the energy module's metrics source publishes, on an
 * embedded cluster with the feature on: over each DataNode's {@code /jmx} it finds every disk
 * the source accounts for, with its host, volume and role, and the accounts' values.
 */
class JmxDiskEnergyReaderTest {
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(
        new File("target/test-clusters/jmx-disk-energy"))
        .nodes(2)
        .volumes(EnergyBenchCluster.volumes(EnergyBenchCluster.Setup.ENERGY)
            .toArray(new StorageType[0]));
    EnergyBenchCluster.keys(EnergyBenchCluster.Setup.ENERGY, 256 * 1024, 60_000)
        .forEach(builder::set);
    cluster = builder.start();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void everyDiskTheSourcesAccountForIsReadOverJmx() throws Exception {
    Set<String> published = new TreeSet<>();
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      EnergyMetricsSource source = (EnergyMetricsSource) DefaultMetricsSystem.instance()
          .getSource(EnergyMetricsInfo.sourceName(dn.getDisplayName()));
      assertTrue(source != null, "a source for " + dn.getDisplayName());
      for (DiskEnergy d : source.accounts()) {
        published.add(d.host() + " " + d.volume() + " backup=" + d.backup());
      }
    }
    assertEquals(4, published.size(), "two DataNodes with a primary and a backup: " + published);

    List<DiskEnergy> read = new JmxDiskEnergyReader().read(cluster.getFileSystem());
    Set<String> seen = new TreeSet<>();
    for (DiskEnergy d : read) {
      seen.add(d.host() + " " + d.volume() + " backup=" + d.backup());
      assertFalse(d.state().isEmpty(), "a power state: " + d);
      assertTrue(d.baselineJoules() >= d.joules() && d.joules() >= 0,
          "energy read as a number, at most the always-spinning baseline: " + d);
    }
    assertEquals(published, seen);
  }
}
