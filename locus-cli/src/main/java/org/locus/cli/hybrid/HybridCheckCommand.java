package org.locus.cli.hybrid;

import java.io.File;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.hybrid.HybridAudit;
import org.locus.hybrid.HybridSettings;
import org.locus.hybrid.NodeManagerLocalDirs;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.NodeDeviceWrites;

/**
 * {@code locus hybrid check [PATH...]}: where each kind of data lives; on a netns cluster also
 * the bytes written to its SSD and other devices. Input/output: replica
 * bytes per storage type of each SSD path (and of each extra PATH, whose replicas must stay off
 * SSD); storage: capacity and bytes used per type; intermediate: each NodeManager's local
 * directories. Exits 1 when a block breaks the layout.
 */
final class HybridCheckCommand extends OptionsCommand {
  HybridCheckCommand() {
    super("locus hybrid check");
  }

  @Override
  public String name() {
    return "check";
  }

  @Override
  public String summary() {
    return "report where input/output and intermediate data live, and SSD bytes used";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("no-yarn")
            .desc("skip the NodeManagers' local directories (an HDFS-only cluster)").build())
        .addOption(ClientConfiguration.option());
  }

  @Override
  protected String usageArguments() {
    return "[PATH...] [--no-yarn] [--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    HybridSettings settings = HybridCommands.settings(conf);
    List<Path> extra = new ArrayList<>();
    for (String arg : line.getArgList()) {
      extra.add(new Path(arg));
    }
    long off = 0;
    try (DistributedFileSystem fs = HybridCommands.hdfs(conf)) {
      HybridAudit audit = new HybridAudit(fs, settings);
      List<HybridAudit.PathUsage> usage;
      try {
        usage = audit.usage(extra);
      } catch (FileNotFoundException e) {
        throw new LocusException(e.getMessage()
            + (settings.ssdPaths().stream().anyMatch(p -> e.getMessage().startsWith(p + " "))
                ? "; run 'locus hybrid apply' first" : ""));
      }
      console.out().println("input and output (HDFS replica bytes per storage type):");
      console.out().printf("  %-24s %-9s %6s %7s %12s %12s %12s %s%n", "PATH", "POLICY", "FILES",
          "BLOCKS", "SSD", "DISK", "OTHER", "OFF-LAYOUT");
      for (HybridAudit.PathUsage u : usage) {
        long other = u.replicaBytes().values().stream().mapToLong(Long::longValue).sum()
            - u.replicaBytes(StorageType.SSD) - u.replicaBytes(StorageType.DISK);
        console.out().printf("  %-24s %-9s %6d %7d %12d %12d %12d %d%s%n", u.path(), u.policy(),
            u.files(), u.blocks(), u.replicaBytes(StorageType.SSD),
            u.replicaBytes(StorageType.DISK), other, u.blocksOffLayout(),
            u.ssd() ? "" : " (not an SSD path: must stay off SSD)");
        off += u.blocksOffLayout();
      }
      console.out().println("storage (live DataNodes):");
      for (HybridAudit.StorageUse s : audit.storage()) {
        console.out().printf("  %-8s %3d volumes  %,16d bytes used of %,d%n", s.type(),
            s.volumes(), s.used(), s.capacity());
      }
    }
    ClusterDirectory cluster = HybridCommands.runningNetns(line.getOptionValue("conf"));
    if (cluster != null) {
      Map<String, Long> now = NodeDeviceWrites.now(cluster);
      Properties base = HybridCommands.deviceBaseline(cluster);
      if (base.isEmpty()) {
        console.out().println("device writes: no baseline ('locus hybrid apply' records one)");
      } else {
        console.out().printf("device writes since 'hybrid apply' (kernel counters of the"
            + " cluster's loop devices): SSD volumes %,d bytes, other devices %,d bytes%n",
            now.get("ssd") - Long.parseLong(base.getProperty("ssd", "0")),
            now.get("hdd") - Long.parseLong(base.getProperty("hdd", "0")));
      }
    }
    if (!line.hasOption("no-yarn")) {
      console.out().println("intermediate data (each NodeManager's yarn.nodemanager.local-dirs,"
          + " from its /conf page):");
      Map<String, List<String>> dirs = NodeManagerLocalDirs.of(conf);
      if (dirs.isEmpty()) {
        console.out().println("  no NodeManager runs");
      }
      dirs.forEach((host, local) -> console.out().printf("  %-16s %s%n", host,
          String.join(",", local)));
    }
    console.out().println(off == 0
        ? "verdict: every block is laid out as the profile intends"
        : "verdict: " + off + " block(s) off the layout (written before 'hybrid apply', or no"
            + " room on SSD); rewrite them or run the stock Mover");
    return off == 0 ? 0 : 1;
  }
}
