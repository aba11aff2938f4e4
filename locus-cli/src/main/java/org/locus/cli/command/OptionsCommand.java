package org.locus.cli.command;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;

/**
 * A leaf command whose arguments are parsed with commons-cli. Subclasses declare their options
 * and act on the parsed line; {@code --help} and parse errors are handled here.
 */
public abstract class OptionsCommand implements Command {
  private final String path;

  /** @param path the words that select this command, e.g. {@code locus cluster up} */
  protected OptionsCommand(String path) {
    this.path = path;
  }

  /** @return the options of this command (without --help) */
  protected abstract Options options();

  /** @return the usage line's arguments after the path, e.g. {@code --dir DIR [options]} */
  protected abstract String usageArguments();

  /** Acts on a parsed command line. */
  protected abstract int execute(CommandLine line, Console console) throws Exception;

  @Override
  public final int run(String[] args, Console console) throws Exception {
    Options options = options();
    options.addOption(Option.builder("h").longOpt("help").desc("show this help").build());
    CommandLine line;
    try {
      line = new DefaultParser().parse(options, args);
    } catch (ParseException e) {
      throw new UsageException(e.getMessage());
    }
    if (line.hasOption("help")) {
      HelpFormatter help = new HelpFormatter();
      help.setWidth(100);
      java.io.PrintWriter writer = new java.io.PrintWriter(console.out(), true);
      help.printHelp(writer, 100, path + " " + usageArguments(), "\n" + summary() + "\n\n",
          options, 2, 2, "");
      writer.flush();
      return 0;
    }
    return execute(line, console);
  }

  /** Refuses the command line unless it has every one of these options; names the first missing. */
  protected static void requireOptions(CommandLine line, String... options)
      throws UsageException {
    for (String option : options) {
      if (!line.hasOption(option)) {
        throw new UsageException("--" + option + " is required");
      }
    }
  }

  /** Parses an integer option with bounds, naming the option in the error. */
  protected static int intOption(CommandLine line, String option, int defaultValue, int min,
      int max) throws UsageException {
    String text = line.getOptionValue(option);
    if (text == null) {
      return defaultValue;
    }
    try {
      int value = Integer.parseInt(text.trim());
      if (value < min || value > max) {
        throw new UsageException("--" + option + " must be " + min + ".." + max + ", got "
            + value);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + option + " needs a whole number, got '" + text + "'");
    }
  }

  /** Parses an option that must be a finite number > 0, naming the option in the error. */
  protected static double positiveOption(CommandLine line, String option, double defaultValue)
      throws UsageException {
    if (!line.hasOption(option)) {
      return defaultValue;
    }
    String text = line.getOptionValue(option).trim();
    try {
      double value = Double.parseDouble(text);
      if (value > 0 && Double.isFinite(value)) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--" + option + " must be a number > 0, got '" + text + "'");
  }
}
