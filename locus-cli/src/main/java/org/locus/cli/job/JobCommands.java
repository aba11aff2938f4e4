package org.locus.cli.job;

import java.util.ArrayList;
import java.util.List;

import org.locus.cli.command.Command;
import org.locus.cli.command.CommandGroup;
import org.locus.jobs.catalog.JobCatalog;
import org.locus.jobs.catalog.LocusJob;

/** {@code locus job}: one subcommand per job of Locus's {@link JobCatalog}. */
public final class JobCommands {
  private JobCommands() {
  }

  public static Command group() {
    List<Command> commands = new ArrayList<>();
    for (LocusJob job : new JobCatalog().all()) {
      commands.add(new CatalogJobCommand(job));
    }
    return new CommandGroup("job", "locus job", "run one of Locus's MapReduce jobs on a cluster",
        commands);
  }
}
