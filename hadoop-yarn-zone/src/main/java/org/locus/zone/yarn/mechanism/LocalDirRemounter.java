package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.util.List;

/**
 * Unmounts and mounts the local-dir file system around a zonectl edit, which works offline
 * only (docs/zone.md, "Online vs offline"), with the vectors {@link ZoneCommands} builds.
 */
public final class LocalDirRemounter {

  private final List<String> umount;
  private final List<String> mount;
  private final ZoneCommands commands;
  private final CommandRunner runner;

  public LocalDirRemounter(ZoneCommands commands, String device, String mountPoint,
      CommandRunner runner) {
    this.umount = commands.umount(device, mountPoint);
    this.mount = commands.mount(device, mountPoint);
    this.commands = commands;
    this.runner = runner;
  }

  public void unmount() throws IOException {
    runChecked(umount, "unmount");
  }

  public void mount() throws IOException {
    runChecked(mount, "mount");
  }

  private void runChecked(List<String> argv, String what) throws IOException {
    CommandRunner.Result r = runner.run(argv);
    if (r.exitCode() != 0) {
      throw new IOException("could not " + what + " the local-dir file system: " + argv
          + " exited " + r.exitCode() + ": " + r.stderr().strip()
          + (commands.isHelperRefusal(r.exitCode()) ? " -- the privileged helper refused: "
              + "its root-owned configuration needs a mount line for the device and mount "
              + "point (docs/security.md)" : ""));
    }
  }
}
