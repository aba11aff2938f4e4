package org.locus.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.energy.accounting.EnergyLedger;
import org.locus.energy.datanode.BackupDisk;
import org.locus.energy.datanode.BackupDiskPowerManager;
import org.locus.energy.datanode.VolumeIoCounters;
import org.locus.energy.disk.DiskPowerState;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kit.LocusMiniCluster;

/**
 * Wake-up prediction (seed 000 §4.3.3) on a 3-node cluster with YARN: while a WordCount drains
 * the primaries, every node wakes its backups by itself, so the job's output replicas land on
 * backups that were already spinning up — no write meets a sleeping disk.
 */
class WakePredictionTest {
  private static final Path INPUT = new Path("/corpus");
  private static final long SPIN_UP_MILLIS = 3000;
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void startClusterAndLoadCorpus() throws Exception {
    cluster = EnergyTestClusters.withEnergyFeature(
        LocusMiniCluster.builder(new File("target/test-clusters/wake-prediction")))
        .nodes(3)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .yarn(true)
        .set("dfs.blocksize", "262144")
        .set("dfs.replication", "3")
        .set(EnergyConfigKeys.PREDICT_WAKE, "true")
        .set(EnergyConfigKeys.SPINUP_MS, Long.toString(SPIN_UP_MILLIS))
        // a woken backup stays up long enough for a slow machine's reduce phase
        .set(EnergyConfigKeys.STANDBY_TIMEOUT_MS, "10000")
        .start();
    DistributedFileSystem fs = cluster.getFileSystem();
    HotScratchSpace.apply(fs, cluster.getConfiguration());
    // file i written as if from node i mod 3, so every node holds primaries to drain
    ZipfTextGenerator corpus = new ZipfTextGenerator(2000, 1.0, 5);
    List<DataNode> nodes = cluster.getDfsCluster().getDataNodes();
    for (int i = 0; i < 6; i++) {
      InetSocketAddress writer = nodes.get(i % nodes.size()).getXferAddress();
      try (Writer out = new OutputStreamWriter(fs.create(new Path(INPUT, "part-" + i),
          FsPermission.getFileDefault(), false, 4096, (short) 3, 262144, null,
          new InetSocketAddress[] {writer}), StandardCharsets.UTF_8)) {
        corpus.lines(i, 512 * 1024, line -> out.write(line + "\n"));
      }
    }
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void backupsAreWokenAheadOfTheOutputSoNoWriteWaitsAFullSpinUp() throws Exception {
    EnergyTestClusters.await("every backup disk in standby", 60_000,
        () -> backups().stream().allMatch(d -> d.state() == DiskPowerState.STANDBY));
    List<BackupDisk> backups = backups();
    List<EnergyLedger.Snapshot> before = snapshots(backups);
    long[] writesBefore = backupWrites();
    long wakesBefore = managers().stream().mapToLong(BackupDiskPowerManager::predictedWakes)
        .sum();

    JobOutcome outcome = JobOutcome.run(WordCount.create(cluster.getConfiguration(), INPUT,
        new Path("/out/wordcount"), 1), false);
    assertTrue(outcome.succeeded());

    long wakes = managers().stream().mapToLong(BackupDiskPowerManager::predictedWakes).sum()
        - wakesBefore;
    assertEquals(3, wakes, "one predicted wake per node, every node holds primaries");
    long[] writesAfter = backupWrites();
    List<EnergyLedger.Snapshot> after = snapshots(backups);
    int written = 0;
    for (int i = 0; i < backups.size(); i++) {
      EnergyLedger.Snapshot during = after.get(i).minus(before.get(i));
      assertEquals(1, during.spinUps(), backups.get(i).name() + " spun up once: " + during);
      if (writesAfter[i] > writesBefore[i]) {
        written++;
        assertTrue(during.demandStallMillis() < SPIN_UP_MILLIS,
            backups.get(i).name() + " was written while asleep: " + during);
      }
    }
    assertEquals(2, written, "the output's two backup replicas were written to backups");
    assertMetricsShowTheWakes();
  }

  /** The same facts through the metrics2 source an operator's sink or JMX sees. */
  private static void assertMetricsShowTheWakes() {
    for (BackupDiskPowerManager manager : managers()) {
      MetricsCollectorImpl collector = new MetricsCollectorImpl();
      DefaultMetricsSystem.instance().getSource(manager.sourceName())
          .getMetrics(collector, true);
      Map<String, Number> node = new HashMap<>();
      List<Number> spinDownAfter = new ArrayList<>();
      for (MetricsRecord record : collector.getRecords()) {
        for (AbstractMetric m : record.metrics()) {
          if (record.name().equals("LocusEnergyNode")) {
            node.put(m.name(), m.value());
          } else if (m.name().equals("SpinDownAfterMillis")) {
            spinDownAfter.add(m.value());
          }
        }
      }
      assertEquals(manager.predictedWakes(), node.get("PredictedWakes").longValue());
      assertEquals(0L, node.get("PrimaryFailures").longValue());
      // the primary is never spun down (-1); the backup at the fixed 10 s timeout
      assertEquals(List.of(-1L, 10_000L),
          spinDownAfter.stream().map(Number::longValue).sorted().toList());
    }
  }

  private static long[] backupWrites() throws Exception {
    List<Long> writes = new ArrayList<>();
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      try (FsDatasetSpi.FsVolumeReferences volumes = dn.getFSDataset().getFsVolumeReferences()) {
        for (FsVolumeSpi volume : volumes) {
          if (volume.getStorageType() == StorageType.ARCHIVE) {
            writes.add(VolumeIoCounters.of(volume).writes());
          }
        }
      }
    }
    return writes.stream().mapToLong(Long::longValue).toArray();
  }

  private static List<BackupDiskPowerManager> managers() {
    return EnergyTestClusters.managers(cluster);
  }

  private static List<BackupDisk> backups() {
    return EnergyTestClusters.backups(cluster);
  }

  private static List<EnergyLedger.Snapshot> snapshots(List<BackupDisk> disks) {
    List<EnergyLedger.Snapshot> snapshots = new ArrayList<>();
    for (BackupDisk disk : disks) {
      synchronized (disk) {
        snapshots.add(disk.ledger().snapshot());
      }
    }
    return snapshots;
  }
}
