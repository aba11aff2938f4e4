package org.locus.cli.kat;

import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.bench.report.TextTable;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.kat.hint.KeyHints;
import org.locus.kat.placement.PlacementMap;
import org.locus.kat.verify.PlacementVerifier;
import org.locus.kat.verify.VerifyReport;

/**
 * {@code locus kat verify}: reads a dataset back and reports keys split across nodes (must be
 * 0), balance per host and the largest keys. Exit 1 when a key is split or a block is off its
 * owner.
 */
final class KatVerifyCommand extends OptionsCommand {
  KatVerifyCommand() {
    super("locus kat verify");
  }

  @Override
  public String name() {
    return "verify";
  }

  @Override
  public String summary() {
    return "check that every key of a KAT dataset lives on one node; balance and skew report";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("path").hasArg().argName("DIR")
            .desc("the dataset; required").build())
        .addOption(Option.builder().longOpt("top").hasArg().argName("N")
            .desc("largest keys to list (default 10)").build())
        .addOption(ClientConfiguration.option());
  }

  @Override
  protected String usageArguments() {
    return "--path DIR [--top N] [--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("path")) {
      throw new UsageException("--path DIR is required");
    }
    int top = intOption(line, "top", 10, 0, 10_000);
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    FileSystem fs = FileSystem.get(conf);
    Path dataset = new Path(line.getOptionValue("path"));
    PlacementMap map = PlacementMap.read(fs, dataset);
    VerifyReport report = new PlacementVerifier(fs, KeyHints.parse(map.hint(), conf))
        .verify(dataset, map, top);
    long total = report.bytesPerHost().values().stream().mapToLong(Long::longValue).sum();
    console.out().printf("dataset %s (hint %s, %d buckets, %d hosts)%n", dataset, map.hint(),
        map.buckets(), map.hosts().size());
    console.out().printf("  keys %d, keyed records %d, records without key %d%n",
        report.keys(), report.records(), report.keylessRecords());
    console.out().printf("  keys split across nodes: %d%n", report.splitKeys());
    console.out().printf("  buckets under the wrong owner: %d, blocks without an owner"
        + " replica: %d%n", report.misplacedBuckets(), report.blocksOffOwner());
    TextTable hosts = new TextTable("HOST", "RECORDS", "BYTES", "SHARE");
    for (Map.Entry<String, Long> e : report.bytesPerHost().entrySet()) {
      hosts.row(e.getKey(), report.recordsPerHost().get(e.getKey()),
          TextTable.bytes(e.getValue()), String.format("%.1f %%", 100.0 * e.getValue() / total));
    }
    console.out().println();
    hosts.print(console.out(), "  ");
    if (top > 0) {
      TextTable keys = new TextTable("KEY", "RECORDS", "BYTES", "SHARE");
      for (VerifyReport.KeySize k : report.topKeys()) {
        keys.row(k.key(), k.records(), TextTable.bytes(k.bytes()),
            String.format("%.1f %%", 100.0 * k.bytes() / total));
      }
      console.out().println();
      keys.print(console.out(), "  ");
    }
    return report.splitKeys() == 0 && report.blocksOffOwner() == 0 ? 0 : 1;
  }
}
