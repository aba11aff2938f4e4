package org.locus.cli.kat;

import java.util.function.Consumer;

import org.apache.hadoop.fs.Path;
import org.locus.cli.Console;
import org.locus.cli.TextTable;
import org.locus.kat.placement.PlacementMap;
import org.locus.kit.LocusMiniCluster;

/** The demo's KAT section: WordCount natively and key-aware over the demo corpus. */
public final class KatDemo {
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
    console.out().printf("  output identical: %s; cross-host shuffle KAT/native: %.3f%n",
        result.identical() ? "yes" : "NO",
        result.nativeRun().crossHostBytes() == 0 ? 0.0
            : (double) result.katRun().crossHostBytes() / result.nativeRun().crossHostBytes());
  }
}
