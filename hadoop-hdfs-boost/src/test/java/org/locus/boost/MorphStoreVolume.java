package org.locus.boost;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.util.Shell;

/**
 * A MorphStore volume for a test DataNode, as an operator builds one: two loop-backed ext4 file
 * systems (two "devices") under one {@code morphstore-fuse} mount with {@code copies=2}, so every
 * file the DataNode writes gets a second copy on the other device. Needs root, FUSE and the
 * binary {@code scripts/setup} builds. {@link #close} unmounts and detaches everything.
 */
final class MorphStoreVolume implements AutoCloseable {
  private static final File FUSE_BINARY =
      new File("../morphstore-kmod/build/morphstore-fuse").getAbsoluteFile();
  private static final File VERIFY_REPLICAS =
      new File("../morphstore-kmod/tests/verify-replicas").getAbsoluteFile();

  /** FS_IOC_SHUTDOWN of the ext4 at argv[1], flag argv[2] (2: without flushing the log) */
  private static final String SHUTDOWN_SCRIPT = "import fcntl, os, struct, sys\n"
      + "fd = os.open(sys.argv[1], os.O_RDONLY)\n"
      + "fcntl.ioctl(fd, 0x8004587D, struct.pack('I', int(sys.argv[2])))\n";

  private final File mountPoint;
  private final List<File> lowers = new ArrayList<>();
  private final List<String> loops = new ArrayList<>();
  private File log;
  private Process daemon;

  private MorphStoreVolume(File mountPoint) {
    this.mountPoint = mountPoint;
  }

  /**
   * Mounts a two-device volume with {@code copies=2} on {@code mountPoint} (which must exist and
   * be empty); the devices' images live in {@code work}.
   */
  static MorphStoreVolume mount(File work, File mountPoint, int deviceMb) throws IOException {
    if (!FUSE_BINARY.canExecute()) {
      throw new IOException(FUSE_BINARY + " is missing: run scripts/setup, which builds it");
    }
    MorphStoreVolume volume = new MorphStoreVolume(mountPoint);
    try {
      for (int d = 0; d < 2; d++) {
        File image = new File(work, "d" + d + ".img");
        File lower = new File(work, "d" + d);
        if (!lower.isDirectory() && !lower.mkdirs()) {
          throw new IOException("cannot create " + lower);
        }
        Shell.execCommand("truncate", "-s", deviceMb + "M", image.getPath());
        Shell.execCommand("mkfs.ext4", "-q", "-F", image.getPath());
        String loop = Shell.execCommand("losetup", "-f", "--show", image.getPath()).trim();
        volume.loops.add(loop);
        Shell.execCommand("mount", loop, lower.getPath());
        volume.lowers.add(lower);
      }
      volume.log = new File(work, "morphstore-fuse.log");
      volume.start();
      return volume;
    } catch (IOException | RuntimeException e) {
      volume.close();
      throw e;
    }
  }

  /** Starts the daemon on the mount point and waits (10 s at most) until the volume answers. */
  private void start() throws IOException {
    daemon = new ProcessBuilder(FUSE_BINARY.getPath(), "-f", "-o",
        "lower=" + lowers.get(0) + ":" + lowers.get(1) + ",copies=2,replicate_bps=0",
        mountPoint.getPath())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (attribute(mountPoint, "morphstore.volume") == null) {
      if (!daemon.isAlive() || System.nanoTime() > deadline) {
        throw new IOException("morphstore-fuse did not mount " + mountPoint + ": " + daemonLog());
      }
      pause();
    }
  }

  /** @return what the daemon has logged so far */
  String daemonLog() throws IOException {
    return Files.readString(log.toPath());
  }

  /** @return the volume's {@code user.morphstore.volume}: devices, their states, the queue */
  String volumeStatus() {
    return attribute(mountPoint, "morphstore.volume");
  }

  /**
   * Device {@code d} fails as a removed disk does under Linux: its ext4 is shut down without
   * flushing its log (FS_IOC_SHUTDOWN, NOLOGFLUSH), after a sync so the test knows what it held;
   * every call on it then fails with EIO.
   */
  void loseDevice(int d) throws IOException {
    Shell.execCommand("sync", "-f", lowers.get(d).getPath());
    Shell.execCommand("python3", "-c", SHUTDOWN_SCRIPT, lowers.get(d).getPath(), "2");
  }

  /**
   * Unmounts the volume and waits for the daemon to exit. A DataNode just stopped in this JVM
   * may still be closing its files on the volume, which the kernel answers with "Device or
   * resource busy": that one answer is retried for up to 30 s.
   */
  void unmount() throws IOException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      try {
        Shell.execCommand("fusermount3", "-u", mountPoint.getPath());
        break;
      } catch (Shell.ExitCodeException e) {
        if (!String.valueOf(e.getMessage()).contains("Device or resource busy")
            || System.nanoTime() > deadline) {
          throw e;
        }
        pause();
      }
    }
    try {
      if (!daemon.waitFor(30, TimeUnit.SECONDS)) {
        throw new IOException("morphstore-fuse did not exit after unmounting " + mountPoint);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    daemon = null;
  }

  /**
   * What an operator does when device {@code d} is back (the volume unmounted): unmount its file
   * system, check it ({@code e2fsck -p} replays the journal), mount it again.
   */
  void returnDevice(int d) throws IOException {
    Shell.execCommand("umount", lowers.get(d).getPath());
    String[] fsck = {"e2fsck", "-p", loops.get(d)};
    Shell.ShellCommandExecutor check = new Shell.ShellCommandExecutor(fsck);
    try {
      check.execute();
    } catch (Shell.ExitCodeException e) {
      if (check.getExitCode() > 1) { // 1: errors corrected
        throw new IOException("e2fsck -p " + loops.get(d) + " exited " + check.getExitCode()
            + ": " + check.getOutput(), e);
      }
    }
    Shell.execCommand("mount", loops.get(d), lowers.get(d).getPath());
  }

  /**
   * Mounts the volume again, which runs the repair pass over a device that was lost, and waits
   * (60 s at most) until the replicator has nothing queued and no device is behind.
   */
  void remountAndAwaitRepair() throws IOException {
    start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String status = volumeStatus();
    while (status == null || !status.lines().findFirst().orElse("").endsWith(" pending=0")
        || !status.contains(" behind=- ")) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the repair of " + mountPoint + " did not finish in 60 s: "
            + status + "\n" + daemonLog());
      }
      pause();
      status = volumeStatus();
    }
  }

  private static void pause() throws IOException {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /** @return the file's {@code user.morphstore.status}, e.g. "wanted=2 copies=2 ..." */
  String status(File file) {
    return attribute(file, "morphstore.status");
  }

  /** @return the files under the mount whose name starts with {@code prefix} */
  List<File> find(String prefix) throws IOException {
    try (var paths = Files.walk(mountPoint.toPath())) {
      return paths.filter(p -> p.getFileName().toString().startsWith(prefix))
          .map(java.nio.file.Path::toFile).toList();
    }
  }

  /** Runs MorphStore's offline check: every live replica is byte-identical to its master. */
  String verifyReplicas() throws IOException {
    return Shell.execCommand(VERIFY_REPLICAS.getPath(), lowers.get(0).getPath(),
        lowers.get(1).getPath());
  }

  private String attribute(File file, String name) {
    try {
      UserDefinedFileAttributeView view = Files.getFileAttributeView(file.toPath(),
          UserDefinedFileAttributeView.class);
      ByteBuffer buffer = ByteBuffer.allocate(4096);
      int n = view.read(name, buffer);
      return new String(buffer.array(), 0, n, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public void close() {
    if (daemon != null) {
      try {
        Shell.execCommand("fusermount3", "-u", mountPoint.getPath());
      } catch (IOException e) {
        try {
          Shell.execCommand("umount", "-l", mountPoint.getPath());
        } catch (IOException ignored) {
          // nothing more to try; the daemon is stopped below
        }
      }
      try {
        if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
          daemon.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (File lower : lowers) {
      try {
        Shell.execCommand("umount", "-l", lower.getPath());
      } catch (IOException ignored) {
        // already gone
      }
    }
    for (String loop : loops) {
      try {
        Shell.execCommand("losetup", "-d", loop);
      } catch (IOException ignored) {
        // already detached
      }
    }
  }
}
