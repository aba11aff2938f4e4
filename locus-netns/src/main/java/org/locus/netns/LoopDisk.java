package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * A node's disk: a sparse image file behind a loop device of its own, formatted ext4 and
 * mounted where the node's daemon keeps one data directory. The loop device reads its image
 * with direct I/O, so the host's page cache does not hold a second copy: the only cache above
 * the throttled device is the node's own, charged to its memory cgroup. With an
 * {@link HddEmulator} the loop device reads the image through the emulated HDD instead.
 */
public final class LoopDisk {
  private final ResourceLedger ledger;
  /** null: the loop device reads the image itself */
  private final HddEmulator hdd;

  /** Disks whose loop devices read their images directly. */
  public LoopDisk(ResourceLedger ledger) {
    this(ledger, null);
  }

  /** Disks whose loop devices read their images through {@code hdd}'s model (null: directly). */
  public LoopDisk(ResourceLedger ledger, HddEmulator hdd) {
    this.ledger = ledger;
    this.hdd = hdd;
  }

  /**
   * A disk made by {@link #create}.
   *
   * @param device the loop device, e.g. {@code /dev/loop3}
   * @param majorMinor its {@code major:minor}, the key of its blkio throttles
   */
  public record Attached(String device, String majorMinor) {
  }

  /** Creates, formats and mounts a disk. */
  public Attached create(File image, long bytes, File mountPoint) throws IOException {
    File parent = image.getParentFile();
    if (!parent.isDirectory() && !parent.mkdirs()) {
      throw new IOException("cannot create " + parent);
    }
    ledger.record("file", image.getPath(), null);
    try (RandomAccessFile file = new RandomAccessFile(image, "rw")) {
      file.setLength(bytes);
    }
    HostCommand.run("mkfs.ext4", "-q", "-F", "-m", "0", image.getPath());
    // Formatted on the image itself: the emulated HDD paces the cluster's I/O, not mkfs's.
    File served = hdd == null ? image : hdd.serve(image, bytes);
    // The ledger line must name the device before it exists; attach it under a name we choose.
    String device = HostCommand.run("losetup", "--find").trim();
    ledger.record("loop", device, served.getPath());
    HostCommand.run("losetup", "--direct-io=on", device, served.getPath());
    if (!mountPoint.isDirectory() && !mountPoint.mkdirs()) {
      throw new IOException("cannot create mount point " + mountPoint);
    }
    ledger.record("mount", mountPoint.getPath(), device);
    HostCommand.run("mount", "-t", "ext4", device, mountPoint.getPath());
    return new Attached(device, HostCommand.run("lsblk", "-dno", "MAJ:MIN", device).trim());
  }

  /** @return the backing file of a loop device, empty when it is detached */
  static String backingFile(String device) throws IOException {
    HostCommand.Result result = HostCommand.attempt("losetup", "-n", "-O", "BACK-FILE", device);
    return result.exitCode() == 0 ? result.output().trim() : "";
  }
}
