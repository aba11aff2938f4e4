package org.locus.cli.command;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.cli.CommandLine;

/** A repeatable {@code --OPTION KEY=VALUE} option: the pairs in the order given. */
public final class KeyValueOption {
  private KeyValueOption() {
  }

  /**
   * @return every {@code KEY=VALUE} given to {@code --option}, the key trimmed, the value as
   *     typed; empty when the option is absent
   * @throws UsageException naming the option, for a pair without a key or an {@code =}
   */
  public static Map<String, String> pairs(CommandLine line, String option)
      throws UsageException {
    Map<String, String> pairs = new LinkedHashMap<>();
    if (line.hasOption(option)) {
      for (String pair : line.getOptionValues(option)) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw new UsageException("--" + option + " needs KEY=VALUE, got '" + pair + "'");
        }
        pairs.put(pair.substring(0, eq).trim(), pair.substring(eq + 1));
      }
    }
    return pairs;
  }
}
