package org.locus.cli.bench;

import java.io.File;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.BenchException;
import org.locus.bench.energy.SpinDownBench;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;

/**
 * {@code locus bench spindown}: argument parsing only; the replay of the spin-down policies on
 * backup-disk access traces is {@link SpinDownBench} in {@code locus-bench}.
 */
public final class SpinDownBenchCommand extends OptionsCommand {
  public SpinDownBenchCommand() {
    super("locus bench spindown");
  }

  @Override
  public String name() {
    return "spindown";
  }

  @Override
  public String summary() {
    return "spin-down policies (fixed timeouts vs idle-gap history) replayed on backup-disk"
        + " access traces";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
        .desc("report directory (default bench-results/spindown)").build());
    options.addOption(Option.builder().longOpt("hours").hasArg().argName("H")
        .desc("length of each trace in hours (default 24)").build());
    options.addOption(Option.builder().longOpt("seed").hasArg().argName("N")
        .desc("seed of the random traces (default 1)").build());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "[--out DIR] [--hours H] [--seed N]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int hours = intOption(line, "hours", 24, 1, 24 * 30);
    int seed = intOption(line, "seed", 1, 0, Integer.MAX_VALUE);
    File out = new File(line.getOptionValue("out", "bench-results/spindown")).getAbsoluteFile();
    try {
      new SpinDownBench(new SpinDownBench.Request(hours, seed, out)).run(console.out(),
          console.err());
    } catch (BenchException e) {
      throw new LocusException(e.getMessage(), e);
    }
    return 0;
  }
}
