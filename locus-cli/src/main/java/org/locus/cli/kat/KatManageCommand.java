package org.locus.cli.kat;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.kat.hint.KeyHint;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.placement.PlacementMap;

/** {@code locus kat manage}: an empty dataset that files written into it fill by key. */
final class KatManageCommand extends OptionsCommand {
  KatManageCommand() {
    super("locus kat manage");
  }

  @Override
  public String name() {
    return "manage";
  }

  @Override
  public String summary() {
    return "create an empty KAT dataset whose directory takes plain files (kat organize)";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("path").hasArg().argName("DIR")
            .desc("the dataset directory to create; must not exist; required").build())
        .addOption(Option.builder().longOpt("extractor").hasArg().argName("SPEC")
            .desc("the jobs' key hint, as for kat import; required").build())
        .addOption(Option.builder().longOpt("buckets").hasArg().argName("B")
            .desc("key buckets (default 64)").build())
        .addOption(ClientConfiguration.option());
  }

  @Override
  protected String usageArguments() {
    return "--path DIR --extractor SPEC [--buckets B] [--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    requireOptions(line, "path", "extractor");
    String spec = line.getOptionValue("extractor");
    KeyHint hint = KatOptions.hint(spec);
    int buckets = intOption(line, "buckets", 64, 1, 100_000);
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    Path path = new Path(line.getOptionValue("path"));
    PlacementMap map = new KatImporter(KatOptions.hdfs(conf), hint, spec,
        QueueDesign.DISTRIBUTED, buckets, p -> { }).createEmpty(path);
    console.out().printf("managing %s: key hint %s, %d buckets over %d hosts; files written"
        + " into it are placed by key by 'locus kat organize --path %s'%n", path, spec,
        map.buckets(), map.hosts().size(), path);
    return 0;
  }
}
