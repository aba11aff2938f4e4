package org.locus.cli.kat;

import java.util.Arrays;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.kat.organize.DatasetOrganizer;

/**
 * {@code locus kat organize}: KAT's system-level path, a process following the NameNode's events
 * that places files written into datasets by key.
 */
final class KatOrganizeCommand extends OptionsCommand {
  KatOrganizeCommand() {
    super("locus kat organize");
  }

  @Override
  public String name() {
    return "organize";
  }

  @Override
  public String summary() {
    return "place files written into KAT datasets by key (and take deleted ones out),"
        + " following HDFS inotify (superuser)";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("path").hasArg().argName("DIR[,DIR...]")
            .desc("the datasets to watch; required").build())
        .addOption(Option.builder().longOpt("until-idle").hasArg().argName("SECONDS")
            .desc("stop once nothing was organized or removed for this long (default: run"
                + " until interrupted)").build())
        .addOption(ClientConfiguration.option());
  }

  @Override
  protected String usageArguments() {
    return "--path DIR[,DIR...] [--until-idle SECONDS] [--conf DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("path")) {
      throw new UsageException("--path DIR is required");
    }
    int idleSeconds = line.hasOption("until-idle")
        ? intOption(line, "until-idle", 0, 1, 86_400) : 0;
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    List<Path> datasets = Arrays.stream(line.getOptionValue("path").split(","))
        .map(String::trim).filter(s -> !s.isEmpty()).map(Path::new).toList();
    DatasetOrganizer organizer = new DatasetOrganizer(KatOptions.hdfs(conf), datasets,
        console.out()::println);
    long[] lastChange = {System.nanoTime()};
    long[] seen = {0};
    console.err().printf("organizing files written into %s%s%n", line.getOptionValue("path"),
        idleSeconds > 0 ? " until " + idleSeconds + " s pass without one" : "; Ctrl-C stops");
    organizer.follow(() -> {
      if (organizer.changes() != seen[0]) {
        seen[0] = organizer.changes();
        lastChange[0] = System.nanoTime();
      }
      return idleSeconds == 0 || System.nanoTime() - lastChange[0] < idleSeconds * 1_000_000_000L;
    });
    console.out().printf("organized %d files, removed the records of %d%n",
        organizer.organized(), organizer.removed());
    return 0;
  }

}
