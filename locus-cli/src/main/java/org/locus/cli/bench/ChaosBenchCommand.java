package org.locus.cli.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.locus.bench.chaos.ChaosBench;
import org.locus.bench.chaos.ChaosResult;
import org.locus.bench.chaos.ChaosSettings;
import org.locus.bench.replay.SwimTraces;
import org.locus.bench.report.ChaosTimelineSvg;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.jobs.swim.SwimScaling;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonLauncher;
import org.locus.netns.NodeCgroup;
import org.locus.netns.ResourceLedger;

/**
 * {@code locus bench chaos}: argument parsing and the report files; the run is
 * {@link ChaosBench} in {@code locus-bench}, on a netns cluster that is already up.
 */
public final class ChaosBenchCommand extends OptionsCommand {
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

  public ChaosBenchCommand() {
    super("locus bench chaos");
  }

  @Override
  public String name() {
    return "chaos";
  }

  @Override
  public String summary() {
    return "a SWIM replay and checked WordCounts on a netns cluster while DataNodes and"
        + " NodeManagers are killed (SIGKILL) on a seeded schedule; fsck and every output"
        + " checked at the end; chaos.json, chaos.md, timeline.svg";
  }

  @Override
  protected String usageArguments() {
    return "--dir DIR --out OUT [--minutes M] [--kill-every T] [--down MIN-MAX] [--seed N]"
        + " [--check-every T] [--trace fb2009|fb2010|FILE] [--hours H] [--roles R,R]"
        + " [--settle T] [--reducers N]";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
        .desc("the netns cluster to run on (locus cluster up --netns --yarn --dir DIR);"
            + " required").build());
    options.addOption(Option.builder().longOpt("out").hasArg().argName("OUT")
        .desc("directory for chaos.json, chaos.md and timeline.svg; required").build());
    options.addOption(Option.builder().longOpt("minutes").hasArg().argName("M")
        .desc("how long faults are injected and checked jobs submitted (default 60)").build());
    options.addOption(Option.builder().longOpt("kill-every").hasArg().argName("T")
        .desc("time between two kills, e.g. 5m (default), 45s").build());
    options.addOption(Option.builder().longOpt("down").hasArg().argName("MIN-MAX")
        .desc("how long a killed daemon stays down, drawn in this range, shorter than"
            + " --kill-every (default 30s-120s)").build());
    options.addOption(Option.builder().longOpt("seed").hasArg().argName("N")
        .desc("seed of the kills and of the checked input (default 1)").build());
    options.addOption(Option.builder().longOpt("check-every").hasArg().argName("T")
        .desc("time between two checked WordCounts (default 5m)").build());
    options.addOption(Option.builder().longOpt("trace").hasArg().argName("TRACE")
        .desc("SWIM trace replayed over the run: fb2009 (default), fb2010 or a trace file")
        .build());
    options.addOption(Option.builder().longOpt("hours").hasArg().argName("H")
        .desc("the trace's first H hours, compressed to the run's length (default 1)").build());
    options.addOption(Option.builder().longOpt("roles").hasArg().argName("R,R")
        .desc("daemons a kill picks from: datanode, nodemanager (default both)").build());
    options.addOption(Option.builder().longOpt("settle").hasArg().argName("T")
        .desc("after the last fault, how long to wait for HDFS to heal (default 10m)")
        .build());
    options.addOption(Option.builder().longOpt("reducers").hasArg().argName("N")
        .desc("reduce tasks of a replayed job that shuffles (default 2)").build());
    return options;
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("dir") || !line.hasOption("out")) {
      throw new UsageException("--dir DIR and --out OUT are required");
    }
    ClusterDirectory dir = new ClusterDirectory(new File(line.getOptionValue("dir")));
    if (!dir.stateFile().isFile() || !dir.isLive()) {
      throw new UsageException("no netns cluster is up in " + dir.root() + " (start one with"
          + " locus cluster up --netns --yarn --dir " + dir.root() + ")");
    }
    Properties state = dir.readState();
    int nodes = Integer.parseInt(state.getProperty("nodes", "0"));
    if (state.getProperty("resourcemanager") == null) {
      throw new UsageException("the cluster in " + dir.root() + " runs no YARN; start it with"
          + " --yarn");
    }
    List<String> roles = List.of(line.getOptionValue("roles", "datanode,nodemanager")
        .split(","));
    for (String role : roles) {
      if (!role.equals("datanode") && !role.equals("nodemanager")) {
        throw new UsageException("--roles takes datanode and nodemanager, not '" + role + "'");
      }
    }
    long[] down = range(line.getOptionValue("down", "30s-120s"));
    SwimTraces trace;
    try {
      trace = SwimTraces.load(line.getOptionValue("trace", "fb2009"), SwimScaling.FB2009_NODES);
    } catch (IOException e) {
      throw new LocusException(e.getMessage(), e);
    }
    ChaosSettings settings;
    try {
      settings = new ChaosSettings(
          Math.round(positiveOption(line, "minutes", 60) * 60_000),
          duration("kill-every", line.getOptionValue("kill-every", "5m")), down[0], down[1],
          Long.parseLong(line.getOptionValue("seed", "1")),
          duration("check-every", line.getOptionValue("check-every", "5m")), trace,
          positiveOption(line, "hours", 1),
          new SwimScaling(Math.max(1, (double) trace.originalNodes() / nodes), 64L << 10,
              16L << 20),
          intOption(line, "reducers", 2, 1, 100), roles,
          duration("settle", line.getOptionValue("settle", "10m")));
      settings.schedule(nodes);
    } catch (NumberFormatException e) {
      throw new UsageException("--seed takes a whole number: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    File out = BenchSetup.reportDirectory(line.getOptionValue("out"), console);
    Configuration conf = ClientConfiguration.load(dir.root().getPath());
    ClusterLayout layout = new ClusterLayout(dir.root());
    DaemonLauncher launcher = new DaemonLauncher(layout,
        NodeCgroup.forHost(layout, new ResourceLedger(layout.ledgerFile())));
    ChaosResult result = new ChaosBench(settings, console.err()).run(conf, launcher, nodes);
    result.write(new File(out, "chaos.json"));
    Files.writeString(new File(out, "chaos.md").toPath(), result.table(),
        StandardCharsets.UTF_8);
    ChaosTimelineSvg.write(new File(out, "timeline.svg").toPath(), result, nodes);
    console.out().print(result.table());
    for (ChaosResult.Application app : result.applications()) {
      console.out().printf("%s %s %s, %d AM attempt(s): %s%n", app.id(), app.name(),
          app.state(), app.attempts(), app.diagnostics());
    }
    console.out().println("report: " + new File(out, "chaos.md"));
    console.out().println("timeline: " + new File(out, "timeline.svg"));
    return result.passed() ? 0 : 1;
  }

  /** @return milliseconds of a duration such as {@code 45s}, {@code 5m}, {@code 1.5h} */
  static long duration(String option, String text) throws UsageException {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new UsageException("--" + option + " takes a duration such as 500ms, 45s, 5m or 1h,"
          + " got '" + text + "'");
    }
    double value = Double.parseDouble(m.group(1));
    double unit = switch (m.group(2)) {
      case "ms" -> 1;
      case "s" -> 1_000;
      case "m" -> 60_000;
      default -> 3_600_000;
    };
    return Math.round(value * unit);
  }

  private static long[] range(String text) throws UsageException {
    String[] parts = text.split("-");
    if (parts.length != 2) {
      throw new UsageException("--down takes MIN-MAX, e.g. 30s-120s, got '" + text + "'");
    }
    return new long[] {duration("down", parts[0]), duration("down", parts[1])};
  }

}
