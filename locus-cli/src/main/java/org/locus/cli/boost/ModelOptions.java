package org.locus.cli.boost;

import org.apache.commons.cli.CommandLine;
import org.locus.cli.command.UsageException;

/** Parsing of the model commands' numeric options, naming the option in every error. */
final class ModelOptions {
  private ModelOptions() {
  }

  static double positiveDouble(CommandLine line, String option, double defaultValue)
      throws UsageException {
    String text = line.getOptionValue(option);
    if (text == null) {
      return defaultValue;
    }
    try {
      double value = Double.parseDouble(text.trim());
      if (!(value > 0) || Double.isInfinite(value)) {
        throw new UsageException("--" + option + " must be a number > 0, got " + text);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + option + " needs a number, got '" + text + "'");
    }
  }

  static long seed(CommandLine line) throws UsageException {
    String text = line.getOptionValue("seed");
    if (text == null) {
      return 1;
    }
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new UsageException("--seed needs a whole number, got '" + text + "'");
    }
  }

  /** @return enough layouts for about 200,000 simulated blocks, at most 50 */
  static int autoTrials(int nodes, int k) {
    return (int) Math.max(1, Math.min(50, 200_000L / ((long) nodes * k)));
  }
}
