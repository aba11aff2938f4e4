package org.locus.cli.gear;

import java.util.List;

import org.locus.cli.command.Command;
import org.locus.cli.command.CommandGroup;

/** {@code locus gear}: NDCouplingHDFS's power-proportional gears (seed 004 §4.3). */
public final class GearCommands {
  private GearCommands() {
  }

  public static Command group() {
    return new CommandGroup("gear", "locus gear",
        "NDCouplingHDFS gears: switch groups of DataNodes off and on, reflect low-gear writes",
        List.of(new GearStatusCommand(), new GearSetCommand(), new GearUpCommand()));
  }
}
