package org.locus.cli.cluster;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterProcessException;
import org.locus.netns.SupervisorProcess;

/** {@code locus cluster up}: starts an embedded cluster in the background. */
public final class ClusterUpCommand extends OptionsCommand {
  public ClusterUpCommand() {
    super("locus cluster up");
  }

  @Override
  public String name() {
    return "up";
  }

  @Override
  public String summary() {
    return "start an embedded multi-host cluster in the background and write its client"
        + " configuration to DIR/conf";
  }

  @Override
  protected Options options() {
    Options options = ClusterSpec.options();
    NetnsOptions.addTo(options);
    return options;
  }

  @Override
  protected String usageArguments() {
    return "--dir DIR [--nodes N] [--volumes DISK,ARCHIVE] [--yarn] [--feature NAME ...]"
        + " [--conf KEY=VALUE ...] [--netns [--link RATE] [--disk-read RATE] [--disk-write RATE]"
        + " [--ssd-read RATE] [--ssd-write RATE]"
        + " [--node-memory SIZE] [--node-cpus CORES] [--replicated-volume TYPE]"
        + " [--disk-size SIZE] [--metadata master|sdp]]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("dir")) {
      throw new UsageException("--dir DIR is required");
    }
    ClusterSpec spec = ClusterSpec.from(line);
    FeatureCatalog catalog = FeatureCatalog.installed();
    spec.checkFeatures(catalog);
    ClusterDirectory dir = new ClusterDirectory(new File(line.getOptionValue("dir")));
    if (line.hasOption("netns")) {
      return new NetnsUp(dir).start(line, spec, catalog, console);
    }
    NetnsOptions.refuseWithoutNetns(line);
    Properties state;
    try {
      SupervisorProcess.prepare(dir);
      long startNanos = System.nanoTime();
      console.err().printf("starting a %d-node cluster in %s (log: %s)%n", spec.nodes(),
          dir.root(), dir.logFile());
      List<String> args = new ArrayList<>(List.of("--dir", dir.root().getPath()));
      args.addAll(spec.toArguments());
      Process process = SupervisorProcess.spawn(dir, ClusterDaemon.class.getName(),
          System.getenv().getOrDefault("LOCUS_CLUSTER_HEAP", "2g"), args);
      dir.writePid(process.pid());
      state = SupervisorProcess.awaitUp(dir, process, console.err(), startNanos);
    } catch (ClusterProcessException e) {
      throw new LocusException(e.getMessage(), e);
    }
    ClusterStatusCommand.printState(dir, state, console);
    console.out().printf("%nclients: export HADOOP_CONF_DIR=%s   (or pass --conf %s)%n",
        dir.confDir(), dir.root());
    return 0;
  }
}
