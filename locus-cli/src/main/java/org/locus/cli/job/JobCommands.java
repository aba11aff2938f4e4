package org.locus.cli.job;

import java.util.List;

import org.locus.cli.Command;
import org.locus.cli.CommandGroup;

/** {@code locus job}: Locus's own MapReduce jobs. */
public final class JobCommands {
  private JobCommands() {
  }

  public static Command group() {
    return new CommandGroup("job", "locus job", "run one of Locus's MapReduce jobs on a cluster",
        List.of(new WordCountCommand(), new GrepCommand()));
  }
}
