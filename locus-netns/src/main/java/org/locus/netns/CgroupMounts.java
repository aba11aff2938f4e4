package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The cgroup hierarchies mounted on this host, read from {@code /proc/self/mountinfo}: cgroup v1
 * hierarchies name their controllers in the super-block options ({@code rw,blkio}); a cgroup v2
 * hierarchy lists the controllers it can hand out in its {@code cgroup.controllers} file.
 * Where they are mounted differs between hosts (Debian 12 mounts only v2 at
 * {@code /sys/fs/cgroup}; hybrid hosts mount v1 controllers under it; a chroot may see none),
 * so nothing here assumes a path.
 */
public final class CgroupMounts {
  static final File MOUNTINFO = new File("/proc/self/mountinfo");

  /** One mounted hierarchy: its mount point, version (1 or 2) and controllers. */
  public record Hierarchy(File mountPoint, int version, Set<String> controllers) {
    boolean has(String controller) {
      return controllers.contains(controller);
    }
  }

  private CgroupMounts() {
  }

  /** @return the hierarchies mounted here, in mount order */
  public static List<Hierarchy> onThisHost() throws IOException {
    return parse(Files.readString(MOUNTINFO.toPath(), StandardCharsets.UTF_8),
        CgroupMounts::v2Controllers);
  }

  /**
   * Parses mountinfo text.
   *
   * @param v2Controllers reads a cgroup v2 mount point's {@code cgroup.controllers}
   */
  static List<Hierarchy> parse(String mountinfo, Function<File, Set<String>> v2Controllers) {
    List<Hierarchy> found = new ArrayList<>();
    for (String line : mountinfo.split("\n")) {
      int dash = line.indexOf(" - ");
      if (dash < 0) {
        continue;
      }
      String[] mount = line.substring(0, dash).split(" ");
      String[] fs = line.substring(dash + 3).split(" ");
      if (mount.length < 5 || fs.length < 3) {
        continue;
      }
      File point = new File(unescape(mount[4]));
      if (fs[0].equals("cgroup2")) {
        found.add(new Hierarchy(point, 2, v2Controllers.apply(point)));
      } else if (fs[0].equals("cgroup")) {
        Set<String> controllers = new LinkedHashSet<>();
        for (String option : fs[2].split(",")) {
          if (!option.equals("rw") && !option.equals("ro") && !option.contains("=")) {
            controllers.add(option);
          }
        }
        found.add(new Hierarchy(point, 1, controllers));
      }
    }
    return found;
  }

  /** @return the first v1 hierarchy that has {@code controller} */
  static Optional<Hierarchy> v1(List<Hierarchy> hierarchies, String controller) {
    return hierarchies.stream().filter(h -> h.version() == 1 && h.has(controller)).findFirst();
  }

  /** @return the first v2 hierarchy that has every one of {@code controllers} */
  static Optional<Hierarchy> v2(List<Hierarchy> hierarchies, List<String> controllers) {
    return hierarchies.stream()
        .filter(h -> h.version() == 2 && h.controllers().containsAll(controllers)).findFirst();
  }

  /** @return every mount point this process sees, cgroup or not */
  static Set<String> mountPoints() throws IOException {
    Set<String> points = new LinkedHashSet<>();
    for (String line : Files.readAllLines(MOUNTINFO.toPath(), StandardCharsets.UTF_8)) {
      String[] fields = line.split(" ");
      if (fields.length > 4) {
        points.add(unescape(fields[4]));
      }
    }
    return points;
  }

  /** @return whether {@code dir} is where some cgroup hierarchy is mounted */
  public static boolean isMountPoint(File dir) throws IOException {
    return onThisHost().stream().anyMatch(h -> h.mountPoint().equals(dir.getAbsoluteFile()));
  }

  static Set<String> v2Controllers(File mountPoint) {
    try {
      String text = Files.readString(new File(mountPoint, "cgroup.controllers").toPath());
      return new LinkedHashSet<>(List.of(text.trim().split("\\s+")));
    } catch (IOException e) {
      return Set.of();
    }
  }

  /** mountinfo escapes space, tab, newline and backslash as three octal digits. */
  static String unescape(String field) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4)
          .matches("[0-7]{3}")) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
