package org.locus.zone.yarn.mechanism;

import java.util.HashMap;
import java.util.Map;

/**
 * One {@code zonectl ... -p} line. Offline (bitmaps):
 * {@code state=reserved class=temp start=B end=B block_size=N free_blocks=N fs_free_blocks=N};
 * online (hold file):
 * {@code state=held class=temp start=B end=B block_size=N free_blocks=N held_blocks=N};
 * {@code state=none class=none ...} without a reservation. {@code start} and {@code end}
 * are the allowed area's first and past-the-end block numbers. A field the line lacks
 * ({@code fs_free_blocks} online, {@code held_blocks} offline) is -1 and 0.
 */
public record ZoneState(String state, String zoneClass, long start, long end, long blockSize,
    long freeBlocks, long fsFreeBlocks, long heldBlocks) {

  /** Whether an area is set, by bitmaps or by a hold. */
  public boolean isReserved() {
    return "reserved".equals(state) || "held".equals(state);
  }

  /** Parses the line; the error names the line and the field that is missing or wrong. */
  public static ZoneState parse(String line) {
    String trimmed = line == null ? "" : line.trim();
    Map<String, String> fields = new HashMap<>();
    for (String token : trimmed.split("\\s+")) {
      int eq = token.indexOf('=');
      if (eq > 0) {
        fields.put(token.substring(0, eq), token.substring(eq + 1));
      }
    }
    return new ZoneState(text(fields, "state", trimmed), text(fields, "class", trimmed),
        number(fields, "start", trimmed), number(fields, "end", trimmed),
        number(fields, "block_size", trimmed), number(fields, "free_blocks", trimmed),
        fields.containsKey("fs_free_blocks") ? number(fields, "fs_free_blocks", trimmed) : -1,
        fields.containsKey("held_blocks") ? number(fields, "held_blocks", trimmed) : 0);
  }

  private static String text(Map<String, String> fields, String name, String line) {
    String v = fields.get(name);
    if (v == null) {
      throw new IllegalArgumentException(
          "zonectl -p line '" + line + "' has no field '" + name + "'");
    }
    return v;
  }

  private static long number(Map<String, String> fields, String name, String line) {
    String v = text(fields, name, line);
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "zonectl -p line '" + line + "': field '" + name + "' is not a number: " + v, e);
    }
  }
}
