package org.locus.energy.disk;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The mount table of this process ({@code /proc/self/mountinfo}, see proc(5)): which block
 * device a directory lives on. Each line is {@code id parent major:minor root mountpoint opts
 * [optional...] - fstype source superopts}; the longest mount point that is a prefix of the
 * directory's real path wins. Octal escapes ({@code \040} for a space) are decoded.
 */
public class MountTable {
  /** One mount: where, which file system type, from which source. */
  public record Mount(String mountPoint, String fsType, String source) {
  }

  private final List<Mount> mounts;

  public MountTable(List<Mount> mounts) {
    this.mounts = List.copyOf(mounts);
  }

  public static MountTable ofThisProcess() throws IOException {
    return parse(Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8));
  }

  static MountTable parse(List<String> lines) {
    List<Mount> mounts = new ArrayList<>();
    for (String line : lines) {
      String[] f = line.split(" ");
      int dash = List.of(f).indexOf("-");
      if (f.length < 5 || dash < 0 || dash + 2 >= f.length) {
        continue;
      }
      mounts.add(new Mount(unescape(f[4]), f[dash + 1], unescape(f[dash + 2])));
    }
    return new MountTable(mounts);
  }

  /** @return the mount holding {@code dir} (resolved through symbolic links) */
  public Mount mountOf(File dir) throws IOException {
    String path = dir.toPath().toRealPath().toString();
    Mount best = null;
    for (Mount m : mounts) {
      boolean contains = path.equals(m.mountPoint())
          || path.startsWith(m.mountPoint().endsWith("/") ? m.mountPoint() : m.mountPoint() + "/");
      if (contains && (best == null || m.mountPoint().length() >= best.mountPoint().length())) {
        best = m;
      }
    }
    if (best == null) {
      throw new IOException("no mount in /proc/self/mountinfo holds " + path);
    }
    return best;
  }

  private static String unescape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 3 < s.length()) {
        out.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
