package org.locus.cli.energy;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.hadoop.fs.Path;
import org.locus.bench.energy.EnergyBenchCluster.Setup;
import org.locus.bench.energy.EnergyBenchCluster;
import org.locus.bench.energy.EnergyBenchTarget;
import org.locus.bench.report.TextTable;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.energy.HotScratchSpace;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.accounting.PowerTimeComparison;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.WordCount;
import org.locus.jobs.data.ZipfTextGenerator;

/**
 * The energy section of {@code locus demo}: a 3-node cluster with primary and (simulated) backup
 * disks, a corpus import, the backups going to standby, a read-heavy WordCount whose small output
 * goes to the primary-only scratch space, and each disk's energy against the same disks always
 * spinning over the same time. This is the seed's read-intensive case (seed 000 §4.4): backups
 * sleep through the job. A job whose output needs backup replicas wakes them and pays a spin-up;
 * {@code locus bench energy} measures that case. About a minute.
 */
public final class EnergyDemo {
  /** The backups' idle timeout in the demo (the bench uses the drive's 60 s break-even). */
  private static final long STANDBY_TIMEOUT_MS = 5_000;

  private EnergyDemo() {
  }

  public static void run(File dir, Console console, Consumer<String> step) throws Exception {
    step.accept("energy: starting a " + EnergyBenchCluster.NODES + "-node cluster with primary"
        + " [DISK] and simulated backup [ARCHIVE] disks");
    try (EnergyBenchCluster bench = EnergyBenchCluster.embedded(dir, Setup.ENERGY,
        EnergyBenchCluster.DEMO_BLOCK_SIZE, STANDBY_TIMEOUT_MS, console.err())) {
      Path corpus = new Path("/demo/energy-corpus");
      new ZipfTextGenerator(5000, 1.0, 7).write(bench.fileSystem(), corpus, 2, 512 * 1024);
      step.accept("energy: corpus written (1 primary + 2 backup replicas per block); waiting"
          + " for the backups to spin down");
      if (!bench.awaitBackupsInStandby(120_000)) {
        throw new LocusException("backup disks did not reach standby within 120 s; see the"
            + " power manager's lines in the demo's hadoop.log");
      }
      Map<String, DiskEnergy> before = bench.accounts();
      Path output = new Path(HotScratchSpace.directories(bench.conf()).get(0),
          "demo-energy-wordcount");
      step.accept("energy: WordCount reading primaries, output to primary-only scratch " + output);
      JobOutcome job = JobOutcome.run(WordCount.create(bench.conf(), corpus, output, 1),
          false);
      List<DiskEnergy> during = EnergyBenchTarget.between(before, bench.accounts());
      console.out().println();
      console.out().printf("Energy-efficient HDFS: WordCount %s in %s, per disk during the"
          + " job (MODELLED energy: simulated Barracuda 7200.14 datasheet disks; backup ="
          + " 3-drive RAID-5)%n", job.succeeded() ? "ok" : "FAILED",
          TextTable.seconds(job.wallMillis()));
      EnergySummary.printDisks(during, console.out());
      PowerTimeComparison comparison = EnergySummary.compare(during);
      EnergySummary.printComparison(comparison, console.out());
      console.out().printf("Verdict: %s%n", verdict(job, during, comparison));
    }
  }

  private static String verdict(JobOutcome job, List<DiskEnergy> disks,
      PowerTimeComparison c) {
    if (!job.succeeded()) {
      return "the job FAILED; see the demo's hadoop.log.";
    }
    long backupSpinUps = disks.stream().filter(DiskEnergy::backup)
        .mapToLong(DiskEnergy::spinUps).sum();
    if (backupSpinUps > 0 || c.energyRatio() >= 1) {
      return String.format("backups woke %d time(s) during the job: disk energy %.2f of"
          + " always-on at time %.2f (modelled) -- the saving needs backups left asleep.",
          backupSpinUps, c.energyRatio(), c.timeRatio());
    }
    return String.format("backups slept through the read-heavy job: disk energy %.2f of"
        + " always-on at time %.2f (modelled, as the seed's read-intensive case); write-heavy"
        + " work wakes them and costs more (locus bench energy).", c.energyRatio(),
        c.timeRatio());
  }
}
