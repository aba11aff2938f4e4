package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Unmounts and mounts the local-dir file system around a zonectl edit, which works offline
 * only (docs/zone.md, "Online vs offline"). Both commands are argument vectors in which
 * {@code {device}} and {@code {mount-point}} are replaced.
 */
public final class LocalDirRemounter {

  private final List<String> umount;
  private final List<String> mount;
  private final CommandRunner runner;

  public LocalDirRemounter(List<String> umountTemplate, List<String> mountTemplate,
      String device, String mountPoint, CommandRunner runner) {
    this.umount = expand(umountTemplate, device, mountPoint);
    this.mount = expand(mountTemplate, device, mountPoint);
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
          + " exited " + r.exitCode() + ": " + r.stderr().strip());
    }
  }

  private static List<String> expand(List<String> template, String device, String mountPoint) {
    List<String> argv = new ArrayList<>(template.size());
    for (String arg : template) {
      argv.add(arg.replace("{device}", device).replace("{mount-point}", mountPoint));
    }
    return List.copyOf(argv);
  }
}
