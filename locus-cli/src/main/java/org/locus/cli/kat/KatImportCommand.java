package org.locus.cli.kat;

import java.io.File;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.report.TextTable;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.kat.hint.KeyHint;
import org.locus.kat.ingest.ImportReport;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;

/** {@code locus kat import}: text into a KAT dataset, each key's records on its owner. */
final class KatImportCommand extends OptionsCommand {
  KatImportCommand() {
    super("locus kat import");
  }

  @Override
  public String name() {
    return "import";
  }

  @Override
  public String summary() {
    return "import text into a KAT dataset: records of one intermediate key on one DataNode";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("extractor").hasArg().argName("SPEC")
            .desc("the job's key hint: wordcount, grep:REGEX, field:N,DELIM or class:FQCN;"
                + " required").build())
        .addOption(Option.builder().longOpt("input").hasArg().argName("PATH")
            .desc("text file or directory, local (a local path or file:/...) or on the"
                + " cluster; required").build())
        .addOption(Option.builder().longOpt("output").hasArg().argName("DIR")
            .desc("dataset directory on the cluster; must not exist unless --append;"
                + " required").build())
        .addOption(Option.builder().longOpt("append")
            .desc("add the input's records to the existing dataset --output (same"
                + " --extractor): each record to its key's bucket on that bucket's owner; on"
                + " failure the dataset is left as it was").build())
        .addOption(Option.builder().longOpt("queues").hasArg().argName("DESIGN")
            .desc("central (one queue per bucket at the importer, shipped bucket by bucket)"
                + " or distributed (a stream per bucket straight to its owner); default"
                + " distributed").build())
        .addOption(Option.builder().longOpt("buckets").hasArg().argName("B")
            .desc("key buckets, the unit a rebalance moves (default 64)").build())
        .addOption(ClientConfiguration.option());
  }

  @Override
  protected String usageArguments() {
    return "--extractor SPEC --input PATH --output DIR [--append]"
        + " [--queues central|distributed] [--buckets B] [--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    requireOptions(line, "extractor", "input", "output");
    QueueDesign design;
    try {
      design = QueueDesign.valueOf(line.getOptionValue("queues", "distributed")
          .toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--queues must be central or distributed, got '"
          + line.getOptionValue("queues") + "'");
    }
    int buckets = intOption(line, "buckets", 64, 1, 100_000);
    boolean append = line.hasOption("append");
    if (append && line.hasOption("buckets")) {
      throw new UsageException("--buckets is the dataset's own with --append; leave it out");
    }
    String spec = line.getOptionValue("extractor");
    KeyHint hint = KatOptions.hint(spec);
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    DistributedFileSystem dfs = KatOptions.hdfs(conf);
    Path input = localOrCluster(line.getOptionValue("input"));
    KatImporter importer = new KatImporter(dfs, hint, spec, design, buckets,
        p -> console.err().printf("  read %d entries (%s), stored %d records%n", p.entries(),
            TextTable.bytes(p.inputBytes()), p.records()));
    Path output = new Path(line.getOptionValue("output"));
    ImportReport report = append ? importer.append(input, output) : importer.run(input, output);
    console.out().printf("%s %s: %d entries (%s) into %d records, %s stored, %s queues,"
        + " %s%n", append ? "appended to" : "imported", report.dataset(), report.entries(),
        TextTable.bytes(report.inputBytes()),
        report.records(), TextTable.bytes(report.storedBytes()),
        design.name().toLowerCase(Locale.ROOT), TextTable.seconds(report.millis()));
    TextTable table = new TextTable("OWNER", "BYTES");
    for (Map.Entry<String, Long> e : report.bytesPerOwner().entrySet()) {
      table.row(e.getKey(), TextTable.bytes(e.getValue()));
    }
    table.print(console.out(), "  ");
    if (report.unsplittableEntries() > 0) {
      console.err().printf("warning: %d entries match several strings and could not be cut"
          + " apart; their other matches are shuffled across hosts%n",
          report.unsplittableEntries());
    }
    return 0;
  }

  /** A path that exists locally (or says file:) is local; anything else is on the cluster. */
  private static Path localOrCluster(String text) {
    if (text.startsWith("file:") || text.contains("://")) {
      return new Path(text);
    }
    File local = new File(text);
    return local.exists() ? new Path(local.getAbsoluteFile().toURI()) : new Path(text);
  }
}
