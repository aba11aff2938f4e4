package org.locus.cli.kat;

import java.util.function.Consumer;

import org.apache.hadoop.fs.Path;
import org.locus.bench.kat.KatComparison;
import org.locus.bench.report.TextTable;
import org.locus.cli.command.Console;
import org.locus.jobs.JobOutcome;
import org.locus.kat.placement.PlacementMap;
import org.locus.kit.LocusMiniCluster;

/**
 * The demo's KAT section: WordCount natively and key-aware over the demo corpus. On the embedded
 * cluster the network is loopback and free, so wall times show only CPU; the point of KAT is
 * the shuffle bytes that cross hosts, and what they would cost on a slow network is computed
 * from them (labelled as computed).
 */
public final class KatDemo {
  /** The seed's slow network (seed 000 §3.5.6: 10 Mbit/s). */
  private static final double LINK_BITS_PER_SECOND = 10e6;

  private KatDemo() {
  }

  /**
   * @param cluster a running cluster with KAT's feature keys and YARN
   * @param corpus the demo corpus on the cluster
   * @param step progress reporter
   */
  public static void run(LocusMiniCluster cluster, Path corpus, Console console,
      Consumer<String> step) throws Exception {
    KatComparison comparison = new KatComparison(cluster.getConfiguration(),
        cluster.getFileSystem());
    step.accept("KAT: importing the corpus by WordCount's keys");
    Path dataset = new Path("/demo/kat-wordcount");
    PlacementMap map = comparison.importDataset(corpus, "wordcount", dataset);
    step.accept("KAT: WordCount without combiner, native and key-aware");
    KatComparison.Result result = comparison.wordCount(corpus, dataset, map);

    console.out().println();
    console.out().println("KAT, key-aware placement (WordCount without combiner, one reducer"
        + " per node)");
    TextTable table = new TextTable("PLACEMENT", "WALL", "DATA-LOCAL", "SHUFFLE",
        "CROSS-HOST SHUFFLE");
    for (int side = 0; side < 2; side++) {
      KatComparison.Side s = side == 0 ? result.nativeRun() : result.katRun();
      table.row(side == 0 ? "native" : "KAT", TextTable.seconds(s.outcome().wallMillis()),
          s.outcome().dataLocalMaps() + "/" + s.outcome().totalMaps(),
          TextTable.bytes(s.outcome().shuffleBytes()), TextTable.bytes(s.crossHostBytes()));
    }
    table.print(console.out(), "  ");
    long nativeCross = result.nativeRun().crossHostBytes();
    long katCross = result.katRun().crossHostBytes();
    int hosts = map.hosts().size();
    console.out().printf("  output identical: %s; cross-host shuffle KAT/native: %.3f%n",
        result.identical() ? "yes" : "NO",
        nativeCross == 0 ? 0.0 : (double) katCross / nativeCross);
    console.out().printf("  on %d hosts with 10 Mbit/s links, moving the cross-host shuffle"
        + " takes at least %.1f s native vs %.1f s KAT%n"
        + "  (computed: bytes x 8 / (%d x 10 Mbit/s), every link busy; not measured here)%n",
        hosts, networkSeconds(nativeCross, hosts), networkSeconds(katCross, hosts), hosts);
    console.out().printf("Verdict: %s%n", verdict(result, hosts));
  }

  /** How KAT's wall time compares with native's, and why, in words. */
  private static String time(JobOutcome nativeJob, JobOutcome katJob) {
    long extraMillis = katJob.wallMillis() - nativeJob.wallMillis();
    if (extraMillis <= 0) {
      return "and is not slower on this free loopback network";
    }
    String why = katJob.totalMaps() > nativeJob.totalMaps()
        ? String.format("KAT runs %d maps to native's %d", katJob.totalMaps(),
            nativeJob.totalMaps())
        : "KAT's tasks wait for their owner's host while native's take any free container";
    return String.format("but took %.1f s longer here, where loopback moves native's shuffle for"
        + " free and %s", extraMillis / 1000.0, why);
  }

  private static double networkSeconds(long bytes, int hosts) {
    return bytes * 8 / (hosts * LINK_BITS_PER_SECOND);
  }

  private static String verdict(KatComparison.Result result, int hosts) {
    if (!result.identical()) {
      return "KAT's output DIFFERS from native: a bug, please report it with "
          + "the demo's logs.";
    }
    long nativeCross = result.nativeRun().crossHostBytes();
    long katCross = result.katRun().crossHostBytes();
    double saved = networkSeconds(nativeCross - katCross, hosts);
    String time = time(result.nativeRun().outcome(), result.katRun().outcome());
    return String.format("KAT gives the same output, keeps %.1f %% of the shuffle on its host"
        + " %s; on a 10 Mbit/s network it would save at least %.0f s of transfer (computed).",
        nativeCross == 0 ? 100.0 : 100.0 * (nativeCross - katCross) / nativeCross, time, saved);
  }
}
