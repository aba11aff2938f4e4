package org.locus.cli.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.locus.bench.report.HtmlReport;
import org.locus.bench.report.ResultsFile;
import org.locus.bench.run.BenchCluster;
import org.locus.bench.run.BenchRunner;
import org.locus.bench.run.NetnsCluster;
import org.locus.bench.run.RunningNetnsCluster;
import org.locus.bench.suite.BenchSuite;
import org.locus.bench.suite.Suites;
import org.locus.cli.cluster.FeatureCatalog;
import org.locus.cli.cluster.NetnsOptions;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.Rate;

/**
 * {@code locus bench run}: argument parsing only; the suites, the runner and the report are in
 * {@code locus-bench}.
 */
public final class BenchRunCommand extends OptionsCommand {
  public BenchRunCommand() {
    super("locus bench run");
  }

  @Override
  public String name() {
    return "run";
  }

  @Override
  public String summary() {
    return "run a suite (PUMA, SWIM) under several feature sets side by side; results.json"
        + " and report.html";
  }

  @Override
  protected String usageArguments() {
    return "--suite NAME --out DIR [--jobs ID,...] [--features none,kat,...]"
        + " [--cluster embedded|local|netns [--link RATE] [--node-memory SIZE] | --conf DIR]"
        + " [--nodes N] [--runs N] [--reducers N]"
        + " [--trace FILE] [--resume] [--no-report]";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("suite").hasArg().argName("NAME")
        .desc("one of " + String.join(", ", Suites.names()) + "; required").build());
    options.addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
        .desc("directory for results.json, report.html, charts and Hadoop's log (hadoop.log);"
            + " required").build());
    options.addOption(Option.builder().longOpt("jobs").hasArg().argName("LIST")
        .desc("comma-separated job ids: run only these of the suite").build());
    options.addOption(Option.builder().longOpt("features").hasArg().argName("LIST")
        .desc("comma-separated feature sets, 'none' = stock Hadoop (default none); with --conf"
            + " one name, the label of what the running cluster has").build());
    options.addOption(Option.builder().longOpt("conf").hasArg().argName("DIR")
        .desc("run on this running cluster (a locus cluster up directory, embedded or netns)"
            + " instead of starting one per feature set; on a netns cluster every run also"
            + " records the bytes each node's link carried").build());
    options.addOption(Option.builder().longOpt("cluster").hasArg().argName("KIND")
        .desc("embedded (multi-host mini cluster, default), local (LocalJobRunner, no"
            + " daemons: checks a suite quickly, timings are not a cluster's) or netns (stock"
            + " daemons as processes, one network namespace per node; needs root)").build());
    options.addOption(Option.builder().longOpt("link").hasArg().argName("RATE")
        .desc("--cluster netns: each node's link rate, e.g. 10mbit, or none (default)")
        .build());
    options.addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
        .desc("--cluster netns: memory of a node (default 2g)").build());
    options.addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
        .desc("embedded cluster nodes (default 4)").build());
    options.addOption(Option.builder().longOpt("runs").hasArg().argName("N")
        .desc("repetitions of every (job, feature) (default 1)").build());
    options.addOption(Option.builder().longOpt("reducers").hasArg().argName("N")
        .desc("reduce tasks per job (default 2)").build());
    options.addOption(Option.builder().longOpt("trace").hasArg().argName("FILE")
        .desc("SWIM trace for the swim-fb2009 / swim-fb2010 suites").build());
    options.addOption(Option.builder().longOpt("resume")
        .desc("keep the runs an earlier results.json in --out has, run only the rest").build());
    options.addOption(Option.builder().longOpt("no-report")
        .desc("write results.json only (no python3/matplotlib needed)").build());
    return options;
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("suite") || !line.hasOption("out")) {
      throw new UsageException("--suite NAME and --out DIR are required");
    }
    int nodes = intOption(line, "nodes", 4, 1, 64);
    int runs = intOption(line, "runs", 1, 1, 1000);
    int reducers = intOption(line, "reducers", 2, 1, 1000);
    String clusterKind = line.getOptionValue("cluster", "embedded");
    if (!List.of("embedded", "local", "netns").contains(clusterKind)) {
      throw new UsageException("--cluster must be embedded, local or netns, got '" + clusterKind
          + "'");
    }
    if (!clusterKind.equals("netns") && (line.hasOption("link")
        || line.hasOption("node-memory"))) {
      throw new UsageException("--link and --node-memory need --cluster netns");
    }
    long linkBps;
    try {
      linkBps = Rate.linkBitsPerSecond("link", line.getOptionValue("link", "none"));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    long nodeMemory = NetnsOptions.size("node-memory", line.getOptionValue("node-memory", "2g"));
    BenchSuite suite;
    try {
      suite = Suites.get(line.getOptionValue("suite"),
          line.hasOption("trace") ? Path.of(line.getOptionValue("trace")) : null, nodes);
      if (line.hasOption("jobs")) {
        suite = suite.only(List.of(line.getOptionValue("jobs").split(",")).stream()
            .map(String::trim).toList());
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    } catch (IOException e) {
      throw new LocusException(e.getMessage(), e);
    }
    if (line.hasOption("conf") && line.hasOption("cluster")) {
      throw new UsageException("--conf runs on a running cluster; --cluster starts one per"
          + " feature set: give one of them");
    }
    Map<String, Configuration> features = new LinkedHashMap<>();
    FeatureCatalog catalog = FeatureCatalog.installed();
    for (String feature : line.getOptionValue("features", "none").split(",")) {
      String name = feature.trim();
      features.put(name, name.equals("none") || line.hasOption("conf")
          ? new Configuration(false) : catalog.keysOf(name));
    }
    File out = BenchSetup.reportDirectory(line.getOptionValue("out"), console);
    File clusterDir = new File(out, "clusters");
    BenchCluster.Factory factory;
    if (line.hasOption("conf")) {
      if (features.size() != 1) {
        throw new UsageException("with --conf the cluster is already running with its own"
            + " keys: --features takes one name, its label, got " + features.keySet());
      }
      String dir = line.getOptionValue("conf");
      BenchCluster running = BenchCluster.running(ClientConfiguration.load(dir), new File(dir));
      clusterKind = running instanceof RunningNetnsCluster ? "netns" : "running";
      factory = (feature, keys) -> running;
    } else if (clusterKind.equals("netns")) {
      factory = NetnsCluster.factory(clusterDir, nodes, linkBps, nodeMemory,
          BenchSetup.home(), console.err());
    } else {
      factory = BenchCluster.factory(clusterKind, clusterDir, nodes);
    }
    ResultsFile results = new BenchRunner(suite, features, clusterKind, factory, runs,
        reducers, console.err()).run(out, line.hasOption("resume"));
    console.out().println("results: " + new File(out, "results.json"));
    if (!line.hasOption("no-report")) {
      try {
        console.out().println("report: " + HtmlReport.write(out));
      } catch (IOException e) {
        throw new LocusException(e.getMessage(), e);
      }
    }
    return results.records().stream().allMatch(r -> r.succeeded()) ? 0 : 1;
  }
}
