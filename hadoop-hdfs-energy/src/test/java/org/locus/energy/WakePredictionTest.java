package org.locus.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.FileStatus;
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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.energy.accounting.EnergyLedger;
import org.locus.energy.datanode.BackupDisk;
import org.locus.energy.datanode.BackupDiskPowerManager;
import org.locus.energy.datanode.PrimaryDataProgress;
import org.locus.energy.datanode.VolumeIoCounters;
import org.locus.energy.disk.DiskPowerState;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kit.LocusMiniCluster;

/**
 * Wake-up prediction (seed 000 §4.3.3) on a 3-node cluster with YARN, as guarantees rather than
 * timings: a node whose primary data has been served down to its last block wakes its backups
 * by itself, exactly once per read phase; and while a WordCount drains the primaries, the
 * predictor wakes a backup at most once, a backup no output reaches spins up only when
 * predicted, and one the output reaches waits at most one spin-up. Whether the output arrives
 * before the woken backup's idle timeout, so that it and the predictor share one spin-up, is a
 * matter of timing (a busy machine's reduce phase can take longer than the timeout), measured
 * by {@code locus bench energy}, not asserted here.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WakePredictionTest {
  private static final Path CORPUS = new Path("/corpus");
  private static final Path JOB_INPUT = new Path("/job-input");
  private static final long BLOCK = 262144;
  private static final long SPIN_UP_MILLIS = 3000;
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void startClusterAndLoadCorpus() throws Exception {
    cluster = EnergyTestClusters.withEnergyFeature(
        LocusMiniCluster.builder(new File("target/test-clusters/wake-prediction")))
        .nodes(3)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .yarn(true)
        .set("dfs.blocksize", Long.toString(BLOCK))
        .set("dfs.replication", "3")
        // a speculative reducer would write a second output: a third backup written
        .set("mapreduce.reduce.speculative", "false")
        .set(EnergyConfigKeys.PREDICT_WAKE, "true")
        .set(EnergyConfigKeys.SPINUP_MS, Long.toString(SPIN_UP_MILLIS))
        // a woken backup stays up long enough for a slow machine's reduce phase
        .set(EnergyConfigKeys.STANDBY_TIMEOUT_MS, "10000")
        .start();
    HotScratchSpace.apply(cluster.getFileSystem(), cluster.getConfiguration());
    writeFromEveryNode(CORPUS, 1);
  }

  /** Six files of 512 KiB, file i written as if from node i mod 3: 1 MiB of primaries each. */
  private static void writeFromEveryNode(Path dir, int seed) throws IOException {
    DistributedFileSystem fs = cluster.getFileSystem();
    ZipfTextGenerator corpus = new ZipfTextGenerator(2000, 1.0, 5);
    List<DataNode> nodes = cluster.getDfsCluster().getDataNodes();
    for (int i = 0; i < 6; i++) {
      InetSocketAddress writer = nodes.get(i % nodes.size()).getXferAddress();
      try (Writer out = new OutputStreamWriter(fs.create(new Path(dir, "part-" + i),
          FsPermission.getFileDefault(), false, 4096, (short) 3, BLOCK, null,
          new InetSocketAddress[] {writer}), StandardCharsets.UTF_8)) {
        corpus.lines(seed * 100 + i, 512 * 1024, line -> out.write(line + "\n"));
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
  @Order(1)
  void servingANodesPrimariesDownToTheLastBlockWakesItsBackupsOnce() throws Exception {
    awaitEveryBackupInStandby();
    long[] wakesBefore = predictedWakes();
    List<EnergyLedger.Snapshot> before = snapshots(backups());
    // every node serves all of its primaries (healthy reads go to primaries only)
    readEverything(CORPUS);
    EnergyTestClusters.await("a predicted wake on every node", 60_000, () -> {
      long[] now = predictedWakes();
      for (int i = 0; i < now.length; i++) {
        if (now[i] == wakesBefore[i]) {
          return false;
        }
      }
      return true;
    });
    // a second pass over the same data is the same phase: no second wake
    readEverything(CORPUS);
    long[] after = predictedWakes();
    List<EnergyLedger.Snapshot> ledgers = snapshots(backups());
    for (int i = 0; i < after.length; i++) {
      assertEquals(1, after[i] - wakesBefore[i], "predicted wakes of node " + i);
      EnergyLedger.Snapshot during = ledgers.get(i).minus(before.get(i));
      assertEquals(1, during.spinUps(), "one spin-up of backup " + i + ": " + during);
      assertEquals(0, during.demandStallMillis(),
          "backup " + i + " was woken by the predictor, nothing waited on it: " + during);
    }
  }

  @Test
  @Order(2)
  void aJobsOutputAndThePredictorShareOneSpinUpPerBackup() throws Exception {
    // a new read phase: the job's input replaces the corpus on every node's primaries
    writeFromEveryNode(JOB_INPUT, 2);
    cluster.getFileSystem().delete(CORPUS, true);
    EnergyTestClusters.await("the corpus's replicas deleted from every DataNode", 60_000,
        () -> primaryBytesPerNode().stream().allMatch(bytes -> bytes < (1 << 20) + BLOCK));
    awaitEveryBackupInStandby();
    List<BackupDisk> backups = backups();
    List<EnergyLedger.Snapshot> before = snapshots(backups);
    long[] writesBefore = backupWrites();
    long[] wakesBefore = predictedWakes();

    JobOutcome outcome = JobOutcome.run(WordCount.create(cluster.getConfiguration(), JOB_INPUT,
        new Path("/out/wordcount"), 1), false);
    assertTrue(outcome.succeeded());

    long[] wakesAfter = predictedWakes();
    long[] writesAfter = backupWrites();
    List<EnergyLedger.Snapshot> after = snapshots(backups);
    int written = 0;
    for (int i = 0; i < backups.size(); i++) {
      long wakes = wakesAfter[i] - wakesBefore[i];
      assertTrue(wakes <= 1, "node " + i + " predicted " + wakes + " wakes in one phase");
      EnergyLedger.Snapshot during = after.get(i).minus(before.get(i));
      if (writesAfter[i] > writesBefore[i]) {
        written++;
        // one spin-up shared with the prediction, or the prediction's and, after the woken
        // backup timed out before the output came, the write's own
        assertTrue(during.spinUps() >= 1 && during.spinUps() <= wakes + 1,
            backups.get(i).name() + " written after " + wakes + " predicted wakes: " + during);
        assertTrue(during.demandStallMillis() <= SPIN_UP_MILLIS,
            backups.get(i).name() + " waited more than one spin-up: " + during);
      } else {
        assertEquals(wakes, during.spinUps(),
            backups.get(i).name() + " not written: spun up only if predicted: " + during);
      }
    }
    assertEquals(2, written, "the output's two backup replicas were written to backups");
    assertMetricsShowTheWakes();
  }

  private static void awaitEveryBackupInStandby() throws InterruptedException {
    EnergyTestClusters.await("every backup disk in standby", 60_000,
        () -> backups().stream().allMatch(d -> d.state() == DiskPowerState.STANDBY));
  }

  private static void readEverything(Path dir) throws IOException {
    DistributedFileSystem fs = cluster.getFileSystem();
    byte[] buffer = new byte[65536];
    for (FileStatus file : fs.listStatus(dir)) {
      try (InputStream in = fs.open(file.getPath())) {
        while (in.read(buffer) >= 0) {
          // drain
        }
      }
    }
  }

  private static long[] predictedWakes() {
    return managers().stream().mapToLong(BackupDiskPowerManager::predictedWakes).toArray();
  }

  private static List<Long> primaryBytesPerNode() {
    List<Long> bytes = new ArrayList<>();
    String bpid = cluster.getDfsCluster().getNamesystem().getBlockPoolId();
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      bytes.add(PrimaryDataProgress.primaryBytes(dn.getFSDataset(), List.of(bpid), 512));
    }
    return bytes;
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
