package org.locus.cli.boost;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.boost.model.AssignmentRule;
import org.locus.boost.model.MapTaskAssignment;
import org.locus.boost.model.RemoteTaskFraction;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;

/**
 * {@code locus boost model-table}: the closed form against every simulation rule over a grid of
 * k, r and node counts, as a Markdown table (the table in docs/boost.md).
 */
final class BoostModelTableCommand extends OptionsCommand {
  BoostModelTableCommand() {
    super("locus boost model-table");
  }

  @Override
  public String name() {
    return "model-table";
  }

  @Override
  public String summary() {
    return "closed form vs simulated remote-map-task fraction over a grid (Markdown)";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("k").hasArg().argName("LIST")
        .desc("blocks per server, comma-separated (default 32,50,100,200)").build());
    options.addOption(Option.builder().longOpt("r").hasArg().argName("LIST")
        .desc("copies per block (default 1,2,3)").build());
    options.addOption(Option.builder().longOpt("nodes").hasArg().argName("LIST")
        .desc("node counts (default 10,100,1000,5000)").build());
    options.addOption(Option.builder().longOpt("slots").hasArg().argName("S")
        .desc("map slots per server for the greedy rule (default 1)").build());
    options.addOption(Option.builder().longOpt("seed").hasArg().argName("N")
        .desc("random seed (default 1)").build());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "[--k LIST] [--r LIST] [--nodes LIST] [--slots S] [--seed N]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    List<Integer> ks = list(line, "k", "32,50,100,200");
    List<Integer> rs = list(line, "r", "1,2,3");
    List<Integer> nodeCounts = list(line, "nodes", "10,100,1000,5000");
    int slots = intOption(line, "slots", 1, 1, 1000);
    long seed = ModelOptions.seed(line);
    console.out().printf("Remote-map-task fraction rho (modelled; greedy with %d slot%s per"
        + " node; seed %d)%n%n", slots, slots == 1 ? "" : "s", seed);
    console.out().println("| k | r | nodes | layouts | closed form | greedy | greedy/closed"
        + " | best matching | designated copy | Eq. A.1 shortfall |");
    console.out().println("|---|---|---|---|---|---|---|---|---|---|");
    for (int k : ks) {
      for (int r : rs) {
        for (int nodes : nodeCounts) {
          if (r > nodes) {
            throw new UsageException("--r " + r + " exceeds --nodes " + nodes);
          }
          int trials = ModelOptions.autoTrials(nodes, k);
          MapTaskAssignment simulation = new MapTaskAssignment(nodes, k, slots, trials, seed);
          double closed = RemoteTaskFraction.closedForm(k, r);
          double greedy = simulation.remoteFraction(AssignmentRule.GREEDY, r);
          console.out().println(String.format(Locale.ROOT,
              "| %d | %d | %d | %d | %.4f | %.4f | %.2f | %.4f | %.4f | %.4f |", k, r, nodes,
              trials, closed, greedy, greedy / closed,
              simulation.remoteFraction(AssignmentRule.MATCHING, r),
              simulation.remoteFraction(AssignmentRule.DESIGNATED, r),
              simulation.remoteFraction(AssignmentRule.SHORTFALL, r)));
        }
      }
    }
    return 0;
  }

  private static List<Integer> list(CommandLine line, String option, String defaultValue)
      throws UsageException {
    List<Integer> values = new ArrayList<>();
    for (String word : line.getOptionValue(option, defaultValue).split(",")) {
      try {
        int value = Integer.parseInt(word.trim());
        if (value < 1 || value > 100_000) {
          throw new UsageException("--" + option + " values must be 1..100000, got " + value);
        }
        values.add(value);
      } catch (NumberFormatException e) {
        throw new UsageException("--" + option + " needs comma-separated whole numbers, got '"
            + word + "'");
      }
    }
    return values;
  }
}
