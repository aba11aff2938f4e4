package org.locus.bench.zone;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.locus.zone.yarn.ZoneConfigKeys;

/**
 * How the NodeManager hook ({@code org.locus.zone.yarn.JobAwareZoneService}) is configured for
 * one strategy of the bench: the keys it gets, nothing else. Every strategy runs the same
 * cluster with the hook installed; only these keys differ.
 *
 * <ul>
 * <li>{@code normal}: the hook is installed and off ({@link ZoneConfigKeys#ENABLED} false): stock
 * placement.
 * <li>{@code existing}: seed 002's reference [2], the dynamic usable area: every job's data goes
 * to one area from the outer edge (every name maps to temp, the input pool's writer too), which the online monitor grows
 * when less than the threshold is free; the area is set anew when a job starts on the idle node.
 * <li>{@code proposed}: job-aware zones (seed §4.2): map- and shuffle-heavy jobs get the outer
 * area, reduce-heavy jobs the inner one, by the name map (the classes {@code zonectl classify}
 * gives the seed's profiles); any other job, such as the input pool's writer, is perm (the
 * default class); the same monitor.
 * </ul>
 */
public enum ZoneStrategy {
  NORMAL, EXISTING, PROPOSED;

  /** @return the strategy's name on the command line and in reports */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return the strategy named {@code word} */
  public static ZoneStrategy parse(String word) {
    for (ZoneStrategy s : values()) {
      if (s.word().equals(word)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown strategy '" + word
        + "'; use normal, existing or proposed");
  }

  /**
   * @param zonectl the zonectl binary
   * @param device the local-dir file system's device
   * @param mountPoint its mount point
   * @param stateDir zonectl's state directory
   * @param outerBytes the outer area's size
   * @param expandBelowBytes the monitor grows a held area with less than this free
   * @return the hook's keys for this strategy
   */
  public Map<String, String> hookKeys(String zonectl, String device, String mountPoint,
      String stateDir, long outerBytes, long expandBelowBytes) {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put(ZoneConfigKeys.ENABLED, Boolean.toString(this != NORMAL));
    // the bench's NodeManager runs in the bench's JVM, as root: zonectl is run directly
    keys.put(ZoneConfigKeys.HELPER_MODE, "direct");
    keys.put(ZoneConfigKeys.ZONECTL, zonectl);
    keys.put(ZoneConfigKeys.DEVICE, device);
    keys.put(ZoneConfigKeys.MOUNT_POINT, mountPoint);
    keys.put(ZoneConfigKeys.METHOD, "hold");
    keys.put(ZoneConfigKeys.STATE_DIR, stateDir);
    keys.put(ZoneConfigKeys.OUTER_SIZE, Long.toString(outerBytes));
    keys.put(ZoneConfigKeys.MONITOR_INTERVAL_MS, "1000");
    keys.put(ZoneConfigKeys.MONITOR_EXPAND_BELOW, Long.toString(expandBelowBytes));
    keys.put(ZoneConfigKeys.DEFAULT_CLASS, "perm");
    keys.put(ZoneConfigKeys.JOB_CLASSES, this == EXISTING
        ? ".=temp"
        : "^map-heavy-=temp,^shuffle-heavy-=temp,^reduce-heavy-=perm");
    return keys;
  }
}
