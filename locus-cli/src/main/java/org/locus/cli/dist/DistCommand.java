package org.locus.cli.dist;

import java.io.File;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.netns.DistBundle;

/** {@code locus dist --out DIR}: writes the bundle an operator installs (see docs/install.md). */
public final class DistCommand extends OptionsCommand {
  public DistCommand() {
    super("locus dist");
  }

  @Override
  public String name() {
    return "dist";
  }

  @Override
  public String summary() {
    return "write the install bundle (Locus jars, feature keys, C tools, install.md) to DIR";
  }

  @Override
  protected Options options() {
    return new Options().addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
        .desc("directory to write the bundle into; required").build());
  }

  @Override
  protected String usageArguments() {
    return "--out DIR";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    if (!line.hasOption("out")) {
      throw new UsageException("--out DIR is required");
    }
    String home = System.getProperty("locus.home");
    if (home == null) {
      throw new LocusException("locus.home is not set; run through bin/locus");
    }
    File out = new File(line.getOptionValue("out")).getAbsoluteFile();
    List<String> written;
    try {
      written = new DistBundle(new File(home)).writeTo(out);
    } catch (IllegalStateException e) {
      throw new LocusException(e.getMessage(), e);
    }
    for (String file : written) {
      console.out().println(file);
    }
    console.out().println("bundle written to " + out + "; see " + out + "/docs/install.md");
    return 0;
  }
}
