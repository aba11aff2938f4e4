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

  private final File mountPoint;
  private final List<File> lowers = new ArrayList<>();
  private final List<String> loops = new ArrayList<>();
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
      File log = new File(work, "morphstore-fuse.log");
      volume.daemon = new ProcessBuilder(FUSE_BINARY.getPath(), "-f", "-o",
          "lower=" + volume.lowers.get(0) + ":" + volume.lowers.get(1)
              + ",copies=2,replicate_bps=0",
          mountPoint.getPath())
          .redirectErrorStream(true).redirectOutput(log).start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (volume.attribute(mountPoint, "morphstore.volume") == null) {
        if (!volume.daemon.isAlive() || System.nanoTime() > deadline) {
          throw new IOException("morphstore-fuse did not mount " + mountPoint + ": "
              + Files.readString(log.toPath()));
        }
        Thread.sleep(50);
      }
      return volume;
    } catch (IOException | InterruptedException | RuntimeException e) {
      volume.close();
      throw e instanceof IOException io ? io : new IOException(e);
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
