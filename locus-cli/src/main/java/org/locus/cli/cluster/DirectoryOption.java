package org.locus.cli.cluster;

import java.io.File;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.locus.cli.command.UsageException;
import org.locus.netns.ClusterDirectory;

/** The {@code --dir DIR} option of the commands that act on a running cluster. */
final class DirectoryOption {
  private DirectoryOption() {
  }

  /** @return the option */
  static Option option() {
    return Option.builder().longOpt("dir").hasArg().argName("DIR")
        .desc("the directory given to 'locus cluster up'; required").build();
  }

  /** @return the directory named by {@code --dir}; its absence is a usage error */
  static ClusterDirectory of(CommandLine line) throws UsageException {
    if (!line.hasOption("dir")) {
      throw new UsageException("--dir DIR is required");
    }
    return new ClusterDirectory(new File(line.getOptionValue("dir")));
  }
}
