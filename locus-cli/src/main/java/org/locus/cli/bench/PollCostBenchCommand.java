package org.locus.cli.bench;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.BenchException;
import org.locus.bench.energy.PollCostBench;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;

/**
 * {@code locus bench energy-poll}: argument parsing only; the micro-benchmark of one
 * wake-predictor poll is {@link PollCostBench} in {@code locus-bench}.
 */
public final class PollCostBenchCommand extends OptionsCommand {
  public PollCostBenchCommand() {
    super("locus bench energy-poll");
  }

  @Override
  public String name() {
    return "energy-poll";
  }

  @Override
  public String summary() {
    return "cost of one wake-predictor poll from 1 000 to 1 000 000 replicas (micro-benchmark)";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("max").hasArg().argName("N")
        .desc("largest replica count (default 1000000)").build());
    options.addOption(Option.builder().longOpt("polls").hasArg().argName("N")
        .desc("polls timed per size (default 200)").build());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "[--max N] [--polls N]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int max = intOption(line, "max", 1_000_000, 1000, 10_000_000);
    int polls = intOption(line, "polls", 200, 1, 100_000);
    try {
      PollCostBench.run(max, polls, console.out());
    } catch (BenchException e) {
      throw new LocusException(e.getMessage(), e);
    }
    return 0;
  }
}
