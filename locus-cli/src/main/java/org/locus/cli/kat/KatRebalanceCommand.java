package org.locus.cli.kat;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.report.TextTable;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.kat.rebalance.RebalanceReport;
import org.locus.kat.rebalance.Rebalancer;

/** {@code locus kat rebalance}: re-place a dataset after DataNodes joined or left. */
final class KatRebalanceCommand extends OptionsCommand {
  KatRebalanceCommand() {
    super("locus kat rebalance");
  }

  @Override
  public String name() {
    return "rebalance";
  }

  @Override
  public String summary() {
    return "after DataNodes join or leave, move only the buckets whose owner changed;"
        + " put back owner replicas HDFS dropped";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("path").hasArg().argName("DIR")
            .desc("the dataset; required").build())
        .addOption(ClientConfiguration.option());
  }

  @Override
  protected String usageArguments() {
    return "--path DIR [--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("path")) {
      throw new UsageException("--path DIR is required");
    }
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    FileSystem fs = FileSystem.get(conf);
    if (!(fs instanceof DistributedFileSystem dfs)) {
      throw new LocusException("the cluster's file system is " + fs.getUri() + ", not HDFS");
    }
    RebalanceReport report = new Rebalancer(dfs).rebalance(new Path(line.getOptionValue("path")));
    console.out().printf("hosts before: %s%nhosts after:  %s%n",
        String.join(",", report.hostsBefore()), String.join(",", report.hostsAfter()));
    console.out().printf("moved %d of %d buckets, %s of %s (%.1f %%)%n", report.bucketsMoved(),
        report.bucketFiles(), TextTable.bytes(report.bytesMoved()),
        TextTable.bytes(report.totalBytes()), 100 * report.movedFraction());
    if (report.bucketsRestored() > 0) {
      console.out().printf("rewrote %d buckets onto owners that had lost a replica%n",
          report.bucketsRestored());
    }
    return 0;
  }
}
