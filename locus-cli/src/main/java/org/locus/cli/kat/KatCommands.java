package org.locus.cli.kat;

import java.util.List;

import org.locus.cli.command.Command;
import org.locus.cli.command.CommandGroup;

/** {@code locus kat}: key-aware data placement (seed 000, ch. 3). */
public final class KatCommands {
  private KatCommands() {
  }

  public static Command group() {
    return new CommandGroup("kat", "locus kat",
        "key-aware placement: import, verify, rebalance and organize KAT datasets",
        List.of(new KatImportCommand(), new KatVerifyCommand(), new KatRebalanceCommand(),
            new KatManageCommand(), new KatOrganizeCommand()));
  }
}
