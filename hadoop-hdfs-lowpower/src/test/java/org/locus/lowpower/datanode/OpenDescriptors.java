package org.locus.lowpower.datanode;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This JVM's open file descriptors, read from /proc/self/fd and /proc/self/fdinfo. */
final class OpenDescriptors {
  /** {@code O_DIRECT} in fdinfo's octal flags: 040000 on x86-64, 0200000 on arm64. */
  private static final int O_DIRECT =
      System.getProperty("os.arch").equals("aarch64") ? 0200000 : 040000;

  private OpenDescriptors() {
  }

  /** @return whether some descriptor open on {@code file} has O_DIRECT in its flags */
  static boolean anyHasODirect(Path file) throws IOException {
    Path target = file.toAbsolutePath().normalize();
    for (File fd : new File("/proc/self/fd").listFiles()) {
      Path link;
      try {
        link = Files.readSymbolicLink(fd.toPath());
        if (!link.equals(target)) {
          continue;
        }
        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo", fd.getName()))) {
          if (line.startsWith("flags:")
              && (Integer.parseInt(line.substring(6).trim(), 8) & O_DIRECT) != 0) {
            return true;
          }
        }
      } catch (IOException e) {
        continue; // the descriptor closed while listing
      }
    }
    return false;
  }
}
