package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

/** The host's mount table as this process sees it ({@code /proc/self/mounts}). */
final class MountTable {
  private MountTable() {
  }

  /** @return whether a file system is mounted on {@code path} */
  static boolean isMounted(File path) throws IOException {
    for (String line : Files.readAllLines(new File("/proc/self/mounts").toPath())) {
      String[] fields = line.split(" ");
      if (fields.length > 1 && fields[1].equals(path.getPath())) {
        return true;
      }
    }
    return false;
  }
}
