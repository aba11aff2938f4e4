package org.locus.cli.energy;

import java.util.List;

import org.locus.cli.command.Command;
import org.locus.cli.command.CommandGroup;

/**
 * {@code locus energy}: energy-efficient HDFS (issue 6) on a running cluster — prepare scratch
 * space, wake backup disks, report energy.
 */
public final class EnergyCommands {
  private EnergyCommands() {
  }

  public static Command group() {
    return new CommandGroup("energy", "locus energy",
        "energy-efficient HDFS: primary/backup disks, backup power states, energy report",
        List.of(new EnergyInitCommand(), new EnergyWakeCommand(), new EnergyReportCommand()));
  }
}
