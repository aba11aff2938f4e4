package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

/**
 * Serves a netns disk's image through {@code zonedisk --drive=}{@value DiskModel#HDD_DRIVE}
 * ({@code --disk-model hdd}): a FUSE daemon on the host, outside every node's namespaces and
 * cgroups, whose {@code DIR/disk} file is the image paced by the drive's HDD model (seek by
 * head travel, rotation, read-ahead). The node's loop device is put over that file instead of
 * the image, so everything above it, ext4, the throttles and the daemons, is unchanged.
 *
 * <p>The daemon is recorded in the {@link ResourceLedger} as {@value #KIND} before it starts,
 * after the image and before the loop device, so teardown, which goes in reverse, stops it
 * only once the loop device has let go of its file, and a cluster whose supervisor was killed
 * is cleaned up the same way. Simulated hardware: what is measured on it is modelled.
 */
public final class HddEmulator {
  /** The ledger kind of a running zonedisk; its name is the mount directory. */
  static final String KIND = "zonedisk";
  private static final long MOUNT_TIMEOUT_SECONDS = 30;
  private static final int UNMOUNT_ATTEMPTS = 50;

  private final File binary;
  private final ResourceLedger ledger;

  /**
   * @param binary the {@code zonedisk} program (the dist bundle's {@code bin/zonedisk})
   * @param ledger where the running daemons are recorded
   */
  public HddEmulator(File binary, ResourceLedger ledger) {
    this.binary = binary;
    this.ledger = ledger;
  }

  /** @return the directory zonedisk serves {@code image} in: beside it, {@code .hdd} */
  static File directoryFor(File image) {
    String name = image.getName().replaceFirst("\\.img$", "");
    return new File(image.getParentFile(), name + ".hdd");
  }

  /**
   * Starts a zonedisk over {@code image} (already formatted) and waits until it serves it.
   *
   * @param bytes the image's size, laid by the model over the drive's whole stroke
   * @return the paced file to put a loop device over
   * @throws IOException naming the binary when it is missing, or zonedisk's own error
   */
  public File serve(File image, long bytes) throws IOException {
    if (!binary.canExecute()) {
      throw new IOException(binary + " is missing: --disk-model hdd serves every disk through"
          + " zonedisk, and the dist bundle carries it only when it was built (run"
          + " scripts/setup)");
    }
    File dir = directoryFor(image);
    Files.createDirectories(dir.toPath());
    ledger.record(KIND, dir.getPath(), image.getPath());
    // Without -f zonedisk mounts, then goes to the background: when this returns it serves.
    HostCommand.run(binary.getPath(), "--backing=" + image.getPath(), "--size=" + bytes,
        "--drive=" + DiskModel.HDD_DRIVE, dir.getPath());
    File disk = new File(dir, "disk");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MOUNT_TIMEOUT_SECONDS);
    while (!disk.isFile()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("zonedisk over " + image + " started but " + disk
            + " did not appear within " + MOUNT_TIMEOUT_SECONDS + " s");
      }
      pause(50);
    }
    return disk;
  }

  /**
   * Stops the zonedisk mounted on {@code dir} by unmounting it (it exits then). Retries for a
   * few seconds while the loop device over it lets go of its file; a directory not mounted is
   * left alone. Never unmounts lazily: a zonedisk detached from its directory would keep serving
   * a loop device that still holds it, under a name no later {@code down} could recognise, so a
   * busy one is left mounted and reported, and a later {@code down} stops it once the loop
   * device has gone (as it goes for a plain disk, docs/netns.md "The ledger and down").
   *
   * @throws IOException when it stays mounted, with fusermount's reason
   */
  static void stop(File dir) throws IOException {
    String reason = "";
    for (int attempt = 0; attempt < UNMOUNT_ATTEMPTS && MountTable.isMounted(dir); attempt++) {
      HostCommand.Result result = HostCommand.attempt("fusermount3", "-u", dir.getPath());
      if (result.exitCode() == 0) {
        return;
      }
      reason = result.output().trim();
      pause(100);
    }
    if (MountTable.isMounted(dir)) {
      throw new IOException("zonedisk on " + dir + " stays mounted (" + reason + "): the loop"
          + " device over its disk file is still attached, a file system on it mounted"
          + " elsewhere? Run down again once it is released");
    }
  }

  private static void pause(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
