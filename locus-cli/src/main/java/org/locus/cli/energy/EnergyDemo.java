package org.locus.cli.energy;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.locus.cli.Console;
import org.locus.cli.LocusException;
import org.locus.cli.TextTable;
import org.locus.cli.energy.EnergyBenchCluster.Setup;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.datanode.VolumeIoCounters;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;

/**
 * The energy section of {@code locus demo}: a 3-node cluster with primary and (simulated) backup
 * disks, a corpus import, the backups going to standby, a WordCount that reads only primaries,
 * and each disk's energy against the same disks always spinning. About 40 s.
 */
public final class EnergyDemo {
  private EnergyDemo() {
  }

  public static void run(File dir, Console console) throws Exception {
    long start = System.nanoTime();
    console.err().printf("[energy] starting a %d-node cluster with primary [DISK] and simulated"
        + " backup [ARCHIVE] disks in %s%n", EnergyBenchCluster.NODES, dir);
    try (EnergyBenchCluster bench = new EnergyBenchCluster(dir, Setup.PREDICTION,
        EnergyBenchCluster.DEMO_BLOCK_SIZE, 5_000)) {
      Path corpus = new Path("/demo/energy-corpus");
      new ZipfTextGenerator(5000, 1.0, 7).write(bench.cluster().getFileSystem(), corpus, 2,
          512 * 1024);
      console.err().println("[energy] corpus written; waiting for the backups to spin down");
      if (!bench.awaitBackupsInStandby(60_000)) {
        throw new LocusException("backup disks did not reach standby within 60 s");
      }
      Map<String, DiskEnergy> before = bench.accounts();
      long backupReadsBefore = backupVolumeReads(bench);
      console.err().println("[energy] running WordCount on primaries only");
      JobOutcome job = JobOutcome.run(WordCount.create(bench.cluster().getConfiguration(),
          corpus, new Path("/demo/energy-wordcount"), 1), false);
      List<DiskEnergy> during = EnergyBenchCluster.between(before, bench.accounts());
      long backupReads = backupVolumeReads(bench) - backupReadsBefore;
      console.out().println();
      console.out().printf("Energy-efficient HDFS: WordCount %s in %s, per disk during the"
          + " job (backup = 3-drive RAID-5, Barracuda 7200.14 datasheet)%n",
          job.succeeded() ? "ok" : "FAILED", TextTable.seconds(job.wallMillis()));
      console.out().printf("  every backup was in standby when WordCount started; read"
          + " operations on backup disks during it: %d%n", backupReads);
      EnergySummary.printDisks(during, console.out());
      EnergySummary.printComparison(EnergySummary.compare(during), console.out());
    }
    console.err().printf("[energy] done in %.1f s%n", (System.nanoTime() - start) / 1e9);
  }

  /** @return read operations so far on every backup ([ARCHIVE]) volume of the cluster */
  private static long backupVolumeReads(EnergyBenchCluster bench) throws IOException {
    long reads = 0;
    for (DataNode dn : bench.cluster().getDfsCluster().getDataNodes()) {
      try (FsDatasetSpi.FsVolumeReferences volumes = dn.getFSDataset().getFsVolumeReferences()) {
        for (FsVolumeSpi volume : volumes) {
          if (volume.getStorageType() == StorageType.ARCHIVE) {
            reads += VolumeIoCounters.of(volume).reads();
          }
        }
      }
    }
    return reads;
  }
}
