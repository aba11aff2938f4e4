package org.locus.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
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
 * The feature on a 3-node cluster with YARN, one primary ([DISK]) and one backup ([ARCHIVE])
 * volume per node, replication 3, simulated disks: placement read back with fsck, reads kept on
 * primaries, backups asleep through a read-only WordCount, and a primary volume failing in the
 * middle of a job.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrimaryBackupReplicasTest {
  private static final Path INPUT = new Path("/corpus");
  private static final Pattern BLOCK_LINE = Pattern.compile("^\\d+\\. BP-.*$", Pattern.MULTILINE);
  private static final Pattern STORAGE = Pattern.compile(",(DISK|ARCHIVE)\\]");
  private static LocusMiniCluster cluster;
  private static FileSystem fs;

  @BeforeAll
  static void startClusterAndLoadCorpus() throws Exception {
    cluster = EnergyTestClusters.withEnergyFeature(
        LocusMiniCluster.builder(new File("target/test-clusters/primary-backup")))
        .nodes(3)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .yarn(true)
        .set("dfs.blocksize", "262144")
        .set("dfs.replication", "3")
        .set("dfs.datanode.failed.volumes.tolerated", "1")
        .set("dfs.datanode.disk.check.min.gap", "0")
        .start();
    fs = cluster.getFileSystem();
    HotScratchSpace.apply(cluster.getFileSystem(), cluster.getConfiguration());
    new ZipfTextGenerator(2000, 1.0, 11).write(fs, INPUT, 4, 512 * 1024);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void everyBlockHasOnePrimaryReplicaAndTheOthersOnBackupVolumes() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new DFSck(cluster.getConfiguration(), new PrintStream(out, true, StandardCharsets.UTF_8))
        .run(new String[] {INPUT.toString(), "-files", "-blocks", "-locations"});
    String report = out.toString(StandardCharsets.UTF_8);
    Matcher blocks = BLOCK_LINE.matcher(report);
    int blockCount = 0;
    while (blocks.find()) {
      blockCount++;
      Map<String, Integer> types = new HashMap<>();
      Matcher storage = STORAGE.matcher(blocks.group());
      while (storage.find()) {
        types.merge(storage.group(1), 1, Integer::sum);
      }
      assertEquals(Map.of("DISK", 1, "ARCHIVE", 2), types, blocks.group());
    }
    assertTrue(blockCount >= 8 && report.contains("Total blocks (validated):\t" + blockCount),
        blockCount + " blocks in " + report);
    assertTrue(report.contains("is HEALTHY"), report);
  }

  @Test
  @Order(2)
  void backupDisksGoToStandbyOnceTheImportIsOver() throws Exception {
    EnergyTestClusters.await("every backup disk in standby", 30_000,
        () -> backups().stream().allMatch(d -> d.state() == DiskPowerState.STANDBY));
    for (BackupDiskPowerManager manager : managers()) {
      for (BackupDisk disk : manager.disks()) {
        if (!disk.backup()) {
          assertTrue(disk.state() != DiskPowerState.STANDBY, "primary " + disk.name());
        }
      }
    }
  }

  @Test
  @Order(3)
  void readOnlyWordCountReadsNoBackupAndWakesOnlyTheBackupsItsOutputReaches() throws Exception {
    EnergyTestClusters.await("every backup disk in standby", 30_000,
        () -> backups().stream().allMatch(d -> d.state() == DiskPowerState.STANDBY));
    Map<String, VolumeIoCounters> ioBefore = backupVolumeIo();
    List<EnergyLedger.Snapshot> before = snapshots();

    JobOutcome outcome = JobOutcome.run(WordCount.create(cluster.getConfiguration(), INPUT,
        new Path("/out/wordcount"), 1), false);
    assertTrue(outcome.succeeded());

    Map<String, VolumeIoCounters> ioAfter = backupVolumeIo();
    List<EnergyLedger.Snapshot> after = snapshots();
    List<BackupDisk> backups = backups();
    for (int i = 0; i < after.size(); i++) {
      BackupDisk disk = backups.get(i);
      EnergyLedger.Snapshot during = after.get(i).minus(before.get(i));
      VolumeIoCounters was = ioBefore.get(disk.storageId());
      VolumeIoCounters is = ioAfter.get(disk.storageId());
      assertEquals(was.reads(), is.reads(), "read operations on backup " + disk.name());
      // The job reads its input from primaries only. What may reach a backup is a replica of
      // the job's output (WARM: one primary, the rest backups): one write wake at most, and
      // a backup that received nothing slept through the whole job.
      if (is.writes() == was.writes()) {
        assertEquals(0, during.spinUps(), "spin-ups of " + disk.name() + ", which saw no I/O: "
            + during);
        assertEquals(1.0, during.share(DiskPowerState.STANDBY), 1e-9, disk.name() + " " + during);
      } else {
        assertTrue(during.spinUps() <= 1, disk.name() + " received output replicas and spun up "
            + during.spinUps() + " times: " + during);
        if (during.spinUps() == 1) {
          assertEquals(BackupDisk.DEMAND_WAKE, disk.wakeReason(), "why " + disk.name()
              + " woke");
        }
      }
    }
  }

  @Test
  @Order(4)
  void aPrimaryVolumeFailingMidJobWakesTheBackupsAndTheJobIsStillCorrect() throws Exception {
    EnergyTestClusters.await("every backup disk in standby", 30_000,
        () -> backups().stream().allMatch(d -> d.state() == DiskPowerState.STANDBY));
    long spinUpsBefore = backups().stream().mapToLong(d -> d.ledger().spinUps()).sum();
    Path output = new Path("/out/wordcount-failure");
    Job job = WordCount.create(cluster.getConfiguration(), INPUT, output, 1);
    long primaryReadsBefore = primaryVolumeReads();
    ExecutorService runner = Executors.newSingleThreadExecutor();
    Future<JobOutcome> outcome = runner.submit(() -> JobOutcome.run(job, false));
    runner.shutdown();
    EnergyTestClusters.await("maps reading primaries", 120_000,
        () -> primaryVolumeReads() > primaryReadsBefore);

    DataNode victim = cluster.getDfsCluster().getDataNodes().get(0);
    FsVolumeSpi primary = null;
    try (FsDatasetSpi.FsVolumeReferences volumes =
        victim.getFSDataset().getFsVolumeReferences()) {
      for (FsVolumeSpi volume : volumes) {
        if (volume.getStorageType() == StorageType.DISK) {
          primary = volume;
        }
      }
    }
    DataNodeTestUtils.injectDataDirFailure(new File(primary.getBaseURI()));
    DataNodeTestUtils.waitForDiskError(victim, primary);
    BackupDiskPowerManager victimManager = managers().get(0);
    EnergyTestClusters.await("the failure seen by the power manager", 30_000,
        () -> victimManager.primaryFailures() == 1);
    EnergyTestClusters.await("every backup disk woken", 30_000,
        () -> backups().stream().noneMatch(d -> d.state() == DiskPowerState.STANDBY));
    assertTrue(backups().stream().mapToLong(d -> d.ledger().spinUps()).sum()
        >= spinUpsBefore + backups().size());
    // the victim's own backups hold backups of live primaries: nothing reads them, so only the
    // failure can have woken them
    String failure = "primary volume " + new File(primary.getBaseURI()).getPath() + " of "
        + victimManager.host() + " failed";
    for (BackupDisk disk : victimManager.disks()) {
      if (disk.backup()) {
        assertEquals(failure, disk.wakeReason(), "why " + disk.name() + " woke");
      }
    }
    // the other nodes' backups serve the failed primary's blocks; a read may reach one before
    // the request does, but every one of them is told to wake because of the failure
    EnergyTestClusters.await("the failure's wake request at every backup", 30_000,
        () -> backups().stream().allMatch(d -> failure.equals(d.lastWakeRequest())));

    assertTrue(outcome.get(5, TimeUnit.MINUTES).succeeded(),
        "WordCount after a primary volume failure");
    assertEquals(countTokensDirectly(), readCounts(output));
    assertTrue(victim.isDatanodeUp());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new DFSck(cluster.getConfiguration(), new PrintStream(out, true, StandardCharsets.UTF_8))
        .run(new String[] {"/"});
    String report = out.toString(StandardCharsets.UTF_8);
    assertTrue(report.contains("is HEALTHY"), report);
    assertTrue(report.matches("(?s).*Missing blocks:\\s+0\\b.*"), report);
    assertTrue(report.matches("(?s).*Corrupt blocks:\\s+0\\b.*"), report);
  }

  private static long primaryVolumeReads() {
    long reads = 0;
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      try (FsDatasetSpi.FsVolumeReferences volumes = dn.getFSDataset().getFsVolumeReferences()) {
        for (FsVolumeSpi volume : volumes) {
          if (volume.getStorageType() == StorageType.DISK) {
            reads += VolumeIoCounters.of(volume).reads();
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return reads;
  }

  private static Map<String, Long> countTokensDirectly() throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    for (FileStatus file : fs.listStatus(INPUT)) {
      for (String line : readLines(file.getPath())) {
        for (String token : line.split("\\s+")) {
          if (!token.isEmpty()) {
            counts.merge(token, 1L, Long::sum);
          }
        }
      }
    }
    return counts;
  }

  private static Map<String, Long> readCounts(Path output) throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    for (FileStatus file : fs.listStatus(output)) {
      if (file.getPath().getName().startsWith("part-")) {
        for (String line : readLines(file.getPath())) {
          String[] fields = line.split("\t");
          counts.put(fields[0], Long.parseLong(fields[1]));
        }
      }
    }
    return counts;
  }

  private static List<String> readLines(Path file) throws IOException {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      return in.lines().toList();
    }
  }

  private static List<BackupDiskPowerManager> managers() {
    return EnergyTestClusters.managers(cluster);
  }

  private static List<BackupDisk> backups() {
    return EnergyTestClusters.backups(cluster);
  }

  private static List<EnergyLedger.Snapshot> snapshots() {
    List<EnergyLedger.Snapshot> snapshots = new ArrayList<>();
    for (BackupDisk disk : backups()) {
      synchronized (disk) {
        snapshots.add(disk.ledger().snapshot());
      }
    }
    return snapshots;
  }

  /** @return the I/O counters of every backup ([ARCHIVE]) volume, by storage ID */
  private static Map<String, VolumeIoCounters> backupVolumeIo() throws Exception {
    Map<String, VolumeIoCounters> io = new HashMap<>();
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      try (FsDatasetSpi.FsVolumeReferences volumes = dn.getFSDataset().getFsVolumeReferences()) {
        for (FsVolumeSpi volume : volumes) {
          if (volume.getStorageType() == StorageType.ARCHIVE) {
            io.put(volume.getStorageID(), VolumeIoCounters.of(volume));
          }
        }
      }
    }
    return io;
  }
}
