package org.locus.cli.boost;

import java.util.Locale;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.boost.model.AssignmentRule;
import org.locus.boost.model.MapTaskAssignment;
import org.locus.boost.model.MapTimeModel;
import org.locus.boost.model.RemoteTaskFraction;
import org.locus.boost.model.TaskShares;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;

/**
 * {@code locus boost model}: the remote-map-task fraction from the closed form and from a Monte
 * Carlo simulation, and the modelled map time of HDFS and BoostDFS (seed 001 Eqs. 4.2-4.4).
 */
final class BoostModelCommand extends OptionsCommand {
  static final double DEFAULT_S_REMOTE = 2.0;
  static final double DEFAULT_S_SUPERLOCAL = 1.6;
  static final double DEFAULT_HEADROOM = 10;

  BoostModelCommand() {
    super("locus boost model");
  }

  @Override
  public String name() {
    return "model";
  }

  @Override
  public String summary() {
    return "remote-map-task fraction (closed form and simulated) and modelled map time";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("k").hasArg().argName("K")
        .desc("blocks (map tasks) per server; required").build());
    options.addOption(Option.builder().longOpt("r").hasArg().argName("R")
        .desc("copies per block (HDFS replication of the baseline); required").build());
    options.addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
        .desc("servers (default 100)").build());
    options.addOption(Option.builder().longOpt("slots").hasArg().argName("S")
        .desc("map slots per server (default 1)").build());
    options.addOption(Option.builder().longOpt("s-remote").hasArg().argName("S")
        .desc("slowdown of a remote map task (default " + DEFAULT_S_REMOTE + ")").build());
    options.addOption(Option.builder().longOpt("s-superlocal").hasArg().argName("S")
        .desc("speedup of a superlocal map task (default " + DEFAULT_S_SUPERLOCAL + ")").build());
    options.addOption(Option.builder().longOpt("compare").hasArg().argName("capacity|availability")
        .desc("BoostDFS at the same capacity (the r copies on r-1 nodes, default) or the same"
            + " availability (r nodes plus one intra-node copy)").build());
    options.addOption(Option.builder().longOpt("headroom").hasArg().argName("C")
        .desc("capacity as a multiple of the replicated input, for Eq. 4.4 (default "
            + DEFAULT_HEADROOM + ")").build());
    options.addOption(Option.builder().longOpt("rule").hasArg().argName("RULE")
        .desc("rule behind rho_simulated: greedy (Hadoop-like, default), matching, designated,"
            + " shortfall").build());
    options.addOption(Option.builder().longOpt("time-from").hasArg().argName("simulated|model")
        .desc("shares the time model uses: the greedy simulation (default) or the closed form")
        .build());
    options.addOption(Option.builder().longOpt("replicated-choices").hasArg().argName("D")
        .desc("BoostDFS: servers compared for each REPLICATED copy, as the NameNode's"
            + " locus.boost.placement.replicated-choices (default 1: uniform random, the seed's"
            + " model; the NameNode's default is 2)").build());
    options.addOption(Option.builder().longOpt("trials").hasArg().argName("T")
        .desc("random layouts to average (default: about 200,000 blocks in all)").build());
    options.addOption(Option.builder().longOpt("seed").hasArg().argName("N")
        .desc("random seed (default 1)").build());
    options.addOption(Option.builder().longOpt("json").desc("print one JSON object").build());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "--k K --r R [--nodes N] [--slots S] [--s-remote S] [--s-superlocal S] [--json]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("k") || !line.hasOption("r")) {
      throw new UsageException("--k K and --r R are required");
    }
    int k = intOption(line, "k", 0, 1, 100_000);
    int nodes = intOption(line, "nodes", 100, 1, 100_000);
    int r = intOption(line, "r", 0, 1, nodes);
    int slots = intOption(line, "slots", 1, 1, 1000);
    int replicatedChoices = intOption(line, "replicated-choices", 1, 1, 100_000);
    int trials = intOption(line, "trials", ModelOptions.autoTrials(nodes, k), 1, 10_000);
    double sRemote = ModelOptions.positiveDouble(line, "s-remote", DEFAULT_S_REMOTE);
    double sSuperlocal = ModelOptions.positiveDouble(line, "s-superlocal", DEFAULT_S_SUPERLOCAL);
    double headroom = ModelOptions.positiveDouble(line, "headroom", DEFAULT_HEADROOM);
    long seed = ModelOptions.seed(line);
    String compare = line.getOptionValue("compare", "capacity");
    int boostNodes;
    if (compare.equals("capacity")) {
      if (r < 2) {
        throw new UsageException("--r " + r + " leaves no copy to mirror inside a node at the"
            + " same capacity; use --r 2 or more, or --compare availability");
      }
      boostNodes = r - 1;
    } else if (compare.equals("availability")) {
      boostNodes = r;
    } else {
      throw new UsageException("--compare must be capacity or availability, got '" + compare
          + "'");
    }
    AssignmentRule rule;
    try {
      rule = AssignmentRule.named(line.getOptionValue("rule", "greedy"));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--rule: " + e.getMessage());
    }
    String timeFrom = line.getOptionValue("time-from", "simulated");
    if (!timeFrom.equals("simulated") && !timeFrom.equals("model")) {
      throw new UsageException("--time-from must be simulated or model, got '" + timeFrom + "'");
    }

    MapTaskAssignment simulation = new MapTaskAssignment(nodes, k, slots, trials, seed);
    double rhoModel = RemoteTaskFraction.closedForm(k, r);
    double rhoSimulated = simulation.remoteFraction(rule, r);
    TaskShares boostShares = simulation.greedyShares(boostNodes, true,
        replicatedChoices);
    double hdfsRemote;
    double boostSuperlocal;
    double boostRemote;
    if (timeFrom.equals("simulated")) {
      hdfsRemote = rule == AssignmentRule.GREEDY ? rhoSimulated
          : simulation.remoteFraction(AssignmentRule.GREEDY, r);
      boostSuperlocal = boostShares.superlocalFraction();
      boostRemote = boostShares.remoteFraction();
    } else {
      hdfsRemote = rhoModel;
      boostSuperlocal = 1 - RemoteTaskFraction.closedForm(k, 1);
      boostRemote = RemoteTaskFraction.closedForm(k, boostNodes);
    }
    double timeHdfs = MapTimeModel.hdfs(hdfsRemote, sRemote);
    double timeBoost = MapTimeModel.boost(boostSuperlocal, boostRemote, sSuperlocal, sRemote);
    double overhead = MapTimeModel.capacityOverhead(headroom, r);

    if (line.hasOption("json")) {
      console.out().println(String.format(Locale.ROOT, "{\"rho_model\": %.6f, \"rho_simulated\":"
          + " %.6f, \"time_hdfs\": %.6f, \"time_boost\": %.6f, \"capacity_overhead\": %.6f,"
          + " \"superlocal_share\": %.6f, \"boost_remote_share\": %.6f, \"rule\": \"%s\","
          + " \"compare\": \"%s\", \"time_from\": \"%s\", \"k\": %d, \"r\": %d, \"nodes\": %d,"
          + " \"slots\": %d, \"replicated_choices\": %d, \"trials\": %d, \"seed\": %d}",
          rhoModel, rhoSimulated, timeHdfs, timeBoost, overhead, boostSuperlocal, boostRemote,
          rule.word(), compare, timeFrom, k, r, nodes, slots, replicatedChoices, trials, seed));
      return 0;
    }
    console.out().printf(Locale.ROOT, "k=%d blocks/server, r=%d copies, %d nodes x %d slots,"
        + " %d layouts, seed %d (all figures modelled)%n", k, r, nodes, slots, trials, seed);
    console.out().printf(Locale.ROOT, "  rho, closed form (Eq. 4.2)      %.4f%n", rhoModel);
    console.out().printf(Locale.ROOT, "  rho, simulated (%s)%s %.4f%n", rule.word(),
        " ".repeat(Math.max(1, 15 - rule.word().length())), rhoSimulated);
    console.out().printf(Locale.ROOT, "  BoostDFS (%s: %d node%s/block, REPLICATED copy %s):"
        + " superlocal %.4f, remote %.4f%n", compare, boostNodes, boostNodes == 1 ? "" : "s",
        replicatedChoices == 1 ? "random" : "least loaded of " + replicatedChoices,
        boostSuperlocal, boostRemote);
    console.out().printf(Locale.ROOT, "  map time vs all-local (%s shares, s_remote %.2f,"
        + " s_superlocal %.2f): HDFS %.4f, BoostDFS %.4f, BoostDFS/HDFS %.4f%n", timeFrom,
        sRemote, sSuperlocal, timeHdfs, timeBoost, timeBoost / timeHdfs);
    console.out().printf(Locale.ROOT, "  capacity overhead of an intra-node copy (Eq. 4.4,"
        + " headroom %.1fx): %.4f%n", headroom, overhead);
    return 0;
  }
}
