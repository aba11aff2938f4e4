package org.locus.cli.hybrid;

import java.io.IOException;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.hybrid.HybridConfigKeys;
import org.locus.hybrid.HybridLayout;
import org.locus.hybrid.HybridSettings;
import org.locus.netns.ClusterDirectory;

/** {@code locus hybrid apply}: gives the profile's SSD paths their stock storage policy. */
final class HybridApplyCommand extends OptionsCommand {
  HybridApplyCommand() {
    super("locus hybrid apply");
  }

  @Override
  public String name() {
    return "apply";
  }

  @Override
  public String summary() {
    return "create the SSD paths (locus.hybrid.ssd.paths) and set their storage policy";
  }

  @Override
  protected Options options() {
    return new Options().addOption(ClientConfiguration.option());
  }

  @Override
  protected String usageArguments() {
    return "[--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.getArgList().isEmpty()) {
      throw new UsageException("unexpected arguments " + line.getArgList()
          + "; the paths come from " + HybridConfigKeys.SSD_PATHS);
    }
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    HybridSettings settings = HybridCommands.settings(conf);
    try (DistributedFileSystem fs = HybridCommands.hdfs(conf)) {
      for (HybridLayout.Applied applied : HybridLayout.apply(fs, settings)) {
        console.out().printf("%s: storage policy %s (was %s%s)%n", applied.path(),
            applied.policy(), applied.policyBefore(), applied.created() ? ", created" : "");
      }
    } catch (IOException e) {
      throw new LocusException(e.getMessage());
    }
    ClusterDirectory cluster = HybridCommands.runningNetns(line.getOptionValue("conf"));
    if (cluster != null) {
      HybridCommands.recordDeviceBaseline(cluster);
      console.out().println("device write counters recorded: 'locus hybrid check' reports the"
          + " bytes written to SSD and other devices from now on");
    }
    console.out().printf("new files under these paths go to SSD volumes (%s); existing blocks"
        + " move only when rewritten or by the stock Mover (hdfs mover -p PATH)%n",
        settings.ssdPolicy());
    return 0;
  }
}
