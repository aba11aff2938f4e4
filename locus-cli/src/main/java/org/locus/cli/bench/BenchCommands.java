package org.locus.cli.bench;

import java.util.List;

import org.locus.cli.command.Command;
import org.locus.cli.command.CommandGroup;

/**
 * {@code locus bench}: side-by-side benchmarks of each Locus feature against its baseline,
 * each writing a Markdown report with a chart. Benchmarks live apart from the tests: they
 * measure, the tests check correctness.
 */
public final class BenchCommands {
  private BenchCommands() {
  }

  public static Command group() {
    return new CommandGroup("bench", "locus bench",
        "benchmark a Locus feature against its baseline, side by side in one run",
        List.of(
            new BenchRunCommand(),
            new BenchSwimCommand(),
            new ChaosBenchCommand(),
            new KatBenchCommand(),
            new HybridBenchCommand(),
            new BoostBenchCommand(),
            new GearBenchCommand(),
            new WordCountBenchCommand(),
            new MetadataBenchCommand(),
            new EnergyBenchCommand(),
            new SpinDownBenchCommand(),
            new CodecBenchCommand(),
            new ChecksumBenchCommand(),
            new LowpowerBenchCommand(),
            new PollCostBenchCommand(),
            new ZoneJobsBenchCommand(),
            new ExternalBenchCommand("zone",
                "job-aware zone placement vs normal and dynamic-area strategies (zonectl/bench/run)",
                List.of("zonectl/bench/run")),
            new ExternalBenchCommand("morphstore",
                "MorphStore LAAS vs JBOD, stripe-only and mirror-only on throttled loop devices",
                List.of("morphstore-kmod/bench/run"))));
  }
}
