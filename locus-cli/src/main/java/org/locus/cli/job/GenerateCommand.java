package org.locus.cli.job;

import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.bench.report.TextTable;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;
import org.locus.jobs.catalog.JobArguments;
import org.locus.jobs.data.DataGenerator;
import org.locus.jobs.data.DataGenerators;

/**
 * {@code locus generate KIND --size BYTES --output PATH}: writes seeded benchmark input of one
 * kind ({@link DataGenerators}) from this client into the cluster's file system.
 */
public final class GenerateCommand extends OptionsCommand {
  private final DataGenerators generators = new DataGenerators();

  public GenerateCommand() {
    super("locus generate");
  }

  @Override
  public String name() {
    return "generate";
  }

  @Override
  public String summary() {
    StringBuilder kinds = new StringBuilder("write seeded benchmark input of one KIND:");
    for (DataGenerator generator : generators.all()) {
      kinds.append("\n  ").append(String.format("%-9s", generator.kind()))
          .append(generator.summary());
    }
    return kinds.toString();
  }

  @Override
  protected String usageArguments() {
    return "KIND --size BYTES --output PATH [--files N] [--seed N] [--conf DIR]";
  }

  @Override
  protected Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("size").hasArg().argName("BYTES")
        .desc("bytes to write, e.g. 4194304 or 64m; required").build());
    options.addOption(Option.builder().longOpt("output").hasArg().argName("PATH")
        .desc("directory to create on the cluster; must not exist; required").build());
    options.addOption(Option.builder().longOpt("files").hasArg().argName("N")
        .desc("number of part files (default 4)").build());
    options.addOption(Option.builder().longOpt("seed").hasArg().argName("N")
        .desc("random seed; equal seeds give equal data (default 42)").build());
    options.addOption(ClientConfiguration.option());
    return options;
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    List<String> positional = line.getArgList();
    if (positional.size() != 1) {
      throw new UsageException("need exactly one KIND; one of: " + kinds());
    }
    DataGenerator generator;
    try {
      generator = generators.get(positional.get(0));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (!line.hasOption("size") || !line.hasOption("output")) {
      throw new UsageException("--size BYTES and --output PATH are required");
    }
    long size;
    long seed;
    try {
      size = JobArguments.parseSize(line.getOptionValue("size").trim());
      seed = Long.parseLong(line.getOptionValue("seed", "42").trim());
    } catch (NumberFormatException | ArithmeticException e) {
      throw new UsageException("--size needs a whole number of bytes (suffix k, m or g"
          + " allowed) and --seed a whole number, got --size '" + line.getOptionValue("size")
          + "'" + (line.hasOption("seed") ? " --seed '" + line.getOptionValue("seed") + "'" : ""));
    }
    if (size < 1) {
      throw new UsageException("--size must be at least 1 byte, got " + size);
    }
    int files = intOption(line, "files", 4, 1, 100_000);
    Configuration conf = ClientConfiguration.load(line.getOptionValue("conf"));
    Path output = new Path(line.getOptionValue("output"));
    FileSystem fs = output.getFileSystem(conf);
    if (fs.exists(output)) {
      throw new LocusException("output " + fs.makeQualified(output)
          + " already exists; remove it or choose another --output");
    }
    long written = generator.write(fs, output, size, files, seed);
    console.out().println("wrote " + TextTable.bytes(written) + " (" + written + " bytes) of "
        + generator.kind() + " in " + files + " files to " + fs.makeQualified(output));
    return 0;
  }

  private String kinds() {
    return String.join(", ", generators.all().stream().map(DataGenerator::kind).toList());
  }
}
