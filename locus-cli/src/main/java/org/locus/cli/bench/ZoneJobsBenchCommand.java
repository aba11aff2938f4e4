package org.locus.cli.bench;

import java.io.File;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.BenchException;
import org.locus.bench.zone.ZoneJobSet;
import org.locus.bench.zone.ZoneJobsRun;
import org.locus.bench.zone.ZoneStrategy;
import org.locus.cli.command.Console;
import org.locus.cli.command.HadoopLogFile;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;

/**
 * {@code locus bench zone-jobs}: argument parsing only; one run of the zone bench with Hadoop
 * jobs is {@link ZoneJobsRun} in {@code locus-bench}. {@code zonectl/bench/hadoop} prepares the
 * emulated zoned disk and calls this once per strategy and run.
 */
public final class ZoneJobsBenchCommand extends OptionsCommand {
  public ZoneJobsBenchCommand() {
    super("locus bench zone-jobs");
  }

  @Override
  public String name() {
    return "zone-jobs";
  }

  @Override
  public String summary() {
    return "one run of seed 002's job groups as Hadoop jobs on a mounted local-dir disk "
        + "(called by zonectl/bench/hadoop)";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("dir").hasArg().argName("MOUNT")
        .desc("mounted ext4 file system the whole cluster lives on (required)").build());
    options.addOption(Option.builder().longOpt("device").hasArg().argName("DEV")
        .desc("its block device (required)").build());
    options.addOption(Option.builder().longOpt("strategy").hasArg().argName("S")
        .desc("normal, existing or proposed (required)").build());
    options.addOption(Option.builder().longOpt("disk-bytes").hasArg().argName("N")
        .desc("size of the file system; job sizes are shares of it (required)").build());
    options.addOption(Option.builder().longOpt("groups").hasArg().argName("G")
        .desc("job groups, cycling map-, shuffle-, reduce-heavy (default 9)").build());
    options.addOption(Option.builder().longOpt("output-share").hasArg().argName("F")
        .desc("share of the disk the reduce-heavy jobs' outputs fill over the set (default "
            + ZoneJobSet.REDUCE_OUTPUT_SHARE + ", at most " + ZoneJobSet.MAX_REDUCE_OUTPUT_SHARE
            + ")").build());
    options.addOption(Option.builder().longOpt("zonectl").hasArg().argName("PATH")
        .desc("zonectl binary (default: zonectl/zonectl of this checkout)").build());
    options.addOption(Option.builder().longOpt("state-dir").hasArg().argName("DIR")
        .desc("zonectl's state directory (required)").build());
    options.addOption(Option.builder().longOpt("out").hasArg().argName("FILE")
        .desc("where the job and run lines go (required)").build());
    options.addOption(Option.builder().longOpt("log").hasArg().argName("FILE")
        .desc("Hadoop's log (default: OUT.log)").build());
    return options;
  }

  @Override
  protected String usageArguments() {
    return "--dir MOUNT --device DEV --strategy normal|existing|proposed --disk-bytes N"
        + " --state-dir DIR --out FILE [--groups G] [--output-share F] [--zonectl PATH] [--log FILE]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    requireOptions(line, "dir", "device", "strategy", "disk-bytes", "state-dir", "out");
    ZoneStrategy strategy;
    try {
      strategy = ZoneStrategy.parse(line.getOptionValue("strategy"));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--strategy: " + e.getMessage());
    }
    long diskBytes;
    try {
      diskBytes = Long.parseLong(line.getOptionValue("disk-bytes").trim());
    } catch (NumberFormatException e) {
      throw new UsageException("--disk-bytes needs a whole number of bytes, got '"
          + line.getOptionValue("disk-bytes") + "'");
    }
    if (diskBytes < (64L << 20)) {
      throw new UsageException("--disk-bytes must be at least 64 MiB, got " + diskBytes);
    }
    int groups = intOption(line, "groups", 9, 3, 300);
    double outputShare = ZoneJobSet.REDUCE_OUTPUT_SHARE;
    if (line.hasOption("output-share")) {
      try {
        outputShare = Double.parseDouble(line.getOptionValue("output-share").trim());
      } catch (NumberFormatException e) {
        throw new UsageException("--output-share needs a number such as 0.45, got '"
            + line.getOptionValue("output-share") + "'");
      }
      try {
        ZoneJobSet.checkReduceOutputShare(outputShare);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--output-share: " + e.getMessage());
      }
    }
    String home = System.getProperty("locus.home", ".");
    String zonectl = line.getOptionValue("zonectl",
        new File(home, "zonectl/zonectl").getAbsolutePath());
    if (!new File(zonectl).canExecute()) {
      throw new UsageException("--zonectl " + zonectl + " is not an executable file (make -C"
          + " zonectl)");
    }
    File out = new File(line.getOptionValue("out"));
    File log = new File(line.getOptionValue("log", out.getPath() + ".log"));
    HadoopLogFile.redirectTo(log);
    console.err().println("locus bench zone-jobs: Hadoop's log is " + log);
    try {
      ZoneJobsRun.run(new ZoneJobsRun.Request(new File(line.getOptionValue("dir")),
          line.getOptionValue("device"), strategy, diskBytes, groups, outputShare, zonectl,
          new File(line.getOptionValue("state-dir")), out), console.err());
    } catch (BenchException e) {
      throw new LocusException(e.getMessage(), e);
    }
    return 0;
  }
}
