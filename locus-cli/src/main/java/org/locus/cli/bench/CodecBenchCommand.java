package org.locus.cli.bench;

import java.io.File;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.codec.CodecComparison;
import org.locus.cli.command.Console;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;

/**
 * {@code locus bench codecs}: argument parsing only; the measurement of the codecs on one
 * sample is {@link CodecComparison} in {@code locus-bench}.
 */
public final class CodecBenchCommand extends OptionsCommand {
  public CodecBenchCommand() {
    super("locus bench codecs");
  }

  @Override
  public String name() {
    return "codecs";
  }

  @Override
  public String summary() {
    return "compression codecs (LZO opt-in, LZ4, Snappy, Deflate, ...): ratio and CPU throughput";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(Option.builder().longOpt("opt-in").hasArg().argName("DIR")
            .desc("directory of opt-in jars to load codecs from, e.g. locus-lzo/target/opt-in "
                + "(adds the GPL LZO codecs)").build())
        .addOption(Option.builder().longOpt("input").hasArg().argName("FILE")
            .desc("sample file (first --mib MiB); default: generated Zipf text").build())
        .addOption(Option.builder().longOpt("mib").hasArg().argName("N")
            .desc("sample size in MiB, 1..512 (default 16)").build())
        .addOption(Option.builder().longOpt("rounds").hasArg().argName("N")
            .desc("compressions and decompressions per codec, 1..100 (default 3)").build());
  }

  @Override
  protected String usageArguments() {
    return "[--opt-in DIR] [--input FILE] [--mib N] [--rounds N]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    int mib = intOption(line, "mib", 16, 1, 512);
    int rounds = intOption(line, "rounds", 3, 1, 100);
    File input = null;
    if (line.hasOption("input")) {
      input = new File(line.getOptionValue("input"));
      if (!input.isFile()) {
        throw new UsageException("--input " + line.getOptionValue("input")
            + " is not a readable file");
      }
    }
    List<File> optInJars = OptInJars.of(line);
    CodecComparison.run(input, mib, rounds, optInJars.isEmpty() ? null : optInJars,
        console.out());
    return 0;
  }
}
