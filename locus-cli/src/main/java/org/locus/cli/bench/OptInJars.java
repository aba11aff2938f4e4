package org.locus.cli.bench;

import java.io.File;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.locus.cli.command.UsageException;

/** The {@code --opt-in DIR} option of the low-power benches: the GPL LZO bundle's jars. */
final class OptInJars {
  private OptInJars() {
  }

  /**
   * @return the jars in {@code --opt-in}'s directory, or empty when the option is absent
   * @throws UsageException when the directory holds no jar, saying how to build the bundle
   */
  static List<File> of(CommandLine line) throws UsageException {
    if (!line.hasOption("opt-in")) {
      return List.of();
    }
    File dir = new File(line.getOptionValue("opt-in"));
    File[] jars = dir.listFiles((d, name) -> name.endsWith(".jar"));
    if (jars == null || jars.length == 0) {
      throw new UsageException("--opt-in " + dir + " holds no jar; build it with "
          + "'mvn -pl locus-lzo package' (expected locus-lzo/target/opt-in)");
    }
    return List.of(jars);
  }
}
