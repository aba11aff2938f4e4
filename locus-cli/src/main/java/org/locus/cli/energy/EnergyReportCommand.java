package org.locus.cli.energy;

import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.energy.JmxDiskEnergyReader;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.energy.accounting.DiskEnergy;

/** {@code locus energy report}: per-disk energy and the Pt / Ptc comparison. */
final class EnergyReportCommand extends OptionsCommand {
  EnergyReportCommand() {
    super("locus energy report");
  }

  @Override
  public String name() {
    return "report";
  }

  @Override
  public String summary() {
    return "per-disk power states and energy since start; energy, time, Pt and Ptc against"
        + " all disks always spinning";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(ClientConfiguration.option());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "[--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    try (FileSystem fs = FileSystem.newInstance(
        ClientConfiguration.load(line.getOptionValue("conf")))) {
      List<DiskEnergy> disks = new JmxDiskEnergyReader().read((DistributedFileSystem) fs);
      if (disks.isEmpty()) {
        throw new LocusException("no DataNode publishes LocusEnergy metrics: is the energy"
            + " feature on (dfs.datanode.plugins = BackupDiskPowerManager)?");
      }
      EnergySummary.printDisks(disks, console.out());
      console.out().println();
      EnergySummary.printComparison(EnergySummary.compare(disks), console.out());
    }
    return 0;
  }
}
