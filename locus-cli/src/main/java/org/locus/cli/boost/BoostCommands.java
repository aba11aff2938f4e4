package org.locus.cli.boost;

import java.util.List;

import org.locus.cli.command.Command;
import org.locus.cli.command.CommandGroup;

/** {@code locus boost}: BoostDFS, superlocal copies on mirrored volumes (seed 001, ch. 4). */
public final class BoostCommands {
  private BoostCommands() {
  }

  public static Command group() {
    return new CommandGroup("boost", "locus boost",
        "BoostDFS: superlocal copies on REPLICATED volumes, and the remote-map-task model",
        List.of(new BoostModelCommand(), new BoostModelTableCommand(),
            new BoostSetPolicyCommand(), new BoostReportCommand()));
  }
}
