package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Evicts a node's cached pages of the files on its disks, so that the next read of them goes
 * to its throttled devices: a bench does this before each timed run, as one drops caches between
 * runs on a real machine. Per file, with GNU {@code dd if=FILE iflag=nocache count=0} (the
 * whole file's {@code POSIX_FADV_DONTNEED}), so no other process's cache on the host is touched,
 * unlike {@code /proc/sys/vm/drop_caches}. Dirty pages cannot be dropped, so {@code sync} runs
 * first.
 */
public final class NodePageCache {
  private NodePageCache() {
  }

  /**
   * @param mounts the directory the node's disks (and a MorphStore volume) are mounted under
   * @return the files whose pages were evicted (a file deleted meanwhile is not counted)
   * @throws IOException if {@code sync} fails, or {@code dd} fails on a file that still exists
   */
  public static int evict(File mounts) throws IOException {
    if (!mounts.isDirectory()) {
      return 0;
    }
    HostCommand.run("sync");
    int evicted = 0;
    for (Path file : regularFiles(mounts.toPath())) {
      HostCommand.Result result = HostCommand.attempt("dd", "if=" + file, "iflag=nocache",
          "count=0", "status=none");
      if (result.exitCode() == 0) {
        evicted++;
      } else if (Files.exists(file)) {
        throw new IOException("cannot evict the cached pages of " + file + ": "
            + result.output().trim());
      }
    }
    return evicted;
  }

  /** @return the node's disks' mount directory in {@code layout} */
  public static File mounts(ClusterLayout layout, String node) {
    return new File(layout.nodeDir(node), "mnt");
  }

  private static List<Path> regularFiles(Path root) throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (attrs.isRegularFile()) {
          files.add(file);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE;    // deleted or unreadable meanwhile: nothing to evict
      }
    });
    return files;
  }
}
