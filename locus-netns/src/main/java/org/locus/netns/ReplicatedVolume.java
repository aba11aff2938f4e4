package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A node's REPLICATED volume (BoostDFS, docs/boost.md): the bundle's {@code morphstore-fuse}
 * mounted with {@code copies=2} over two of the node's disks, so every file the DataNode writes
 * there gets a second copy on the other device. The daemon runs inside the node's cgroups, so
 * its reads and writes of the two throttled devices count as the node's, and in the host's
 * mount namespace, so the node's DataNode (started later; {@code ip netns exec} copies the
 * host's mounts) sees the mount. The mount is in the ledger before it exists; {@code down}
 * kills the daemon with the node's other processes and then unmounts it.
 *
 * <p>{@code laas_factor=2}: a DataNode streaming one block keeps two files open (the block and
 * its checksums), so under the default factor (1 × 2 devices = a load of 2 open files) a single
 * reader already binds to one device. With 2, one block stream is split over both copies and
 * two concurrent streams are each bound to a device, which is the seed's superlocal read.
 */
final class ReplicatedVolume {
  /** The disk name of the MorphStore mount under the node's {@code mnt/}. */
  static final String MOUNT = "replicated";
  /** The two disks under it, each a loop device of its own. */
  static final List<String> DISKS = List.of("mirror0", "mirror1");
  private static final long MOUNT_TIMEOUT_SECONDS = 20;

  private final ClusterLayout layout;
  private final ResourceLedger ledger;
  private final DaemonLauncher launcher;

  ReplicatedVolume(ClusterLayout layout, ResourceLedger ledger, DaemonLauncher launcher) {
    this.layout = layout;
    this.ledger = ledger;
    this.launcher = launcher;
  }

  /** @return the bundle's FUSE front end of MorphStore */
  File fuseBinary() {
    return new File(layout.distDir(), "bin/morphstore-fuse");
  }

  /**
   * Mounts the node's volume over its two mirror disks (already mounted) and waits until
   * MorphStore answers on it.
   *
   * @return the mount point
   * @throws IOException naming the binary when the bundle has none, or with the daemon's log
   *     when it does not mount
   */
  File mount(String node) throws IOException {
    File binary = fuseBinary();
    if (!binary.canExecute()) {
      throw new IOException(binary + " is missing: a REPLICATED volume is a morphstore-fuse"
          + " mount, and the dist bundle carries the binary only when it was built (run"
          + " scripts/setup)");
    }
    File mountPoint = layout.mountPoint(node, MOUNT);
    Files.createDirectories(mountPoint.toPath());
    List<String> lowers = new ArrayList<>();
    for (String disk : DISKS) {
      lowers.add(layout.mountPoint(node, disk).getPath());
    }
    File log = new File(layout.nodeDir(node), "logs/morphstore-fuse.out");
    Files.createDirectories(log.getParentFile().toPath());
    ledger.record("mount", mountPoint.getPath(), "morphstore-fuse");
    Process daemon = new ProcessBuilder(launcher.inNodeGroups(node, List.of(binary.getPath(),
        "-f", "-o", "lower=" + String.join(":", lowers) + ",copies=2,replicate_bps=0,laas_factor=2",
        mountPoint.getPath()))).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MOUNT_TIMEOUT_SECONDS);
    while (!answers(mountPoint)) {
      if (!daemon.isAlive() || System.nanoTime() > deadline) {
        throw new IOException("morphstore-fuse did not mount " + mountPoint + " within "
            + MOUNT_TIMEOUT_SECONDS + " s" + (daemon.isAlive() ? "" : " (it exited "
            + daemon.exitValue() + ")") + ": " + Files.readString(log.toPath()).trim());
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while mounting " + mountPoint, e);
      }
    }
    return mountPoint;
  }

  /** @return whether MorphStore serves {@code dir} (its volume attribute reads) */
  static boolean answers(File dir) {
    try {
      UserDefinedFileAttributeView view = Files.getFileAttributeView(dir.toPath(),
          UserDefinedFileAttributeView.class);
      return view != null && view.read("morphstore.volume", ByteBuffer.allocate(4096)) > 0;
    } catch (IOException e) {
      return false;
    }
  }
}
