package org.locus.zone.yarn;

/**
 * Every configuration key of the NodeManager zone hook, with its default and meaning. Set them
 * in the NodeManager's yarn-site.xml (template: {@code conf/features/zone.xml}; table:
 * {@code docs/zone.md}, "The NodeManager hook").
 */
public final class ZoneConfigKeys {

  private ZoneConfigKeys() {
  }

  /** Whether the hook acts at all; when false it only logs application starts and stops. */
  public static final String ENABLED = "locus.zone.enabled";
  public static final boolean ENABLED_DEFAULT = false;

  /**
   * How zonectl's edits and mount/umount get root (docs/security.md): {@code sudo} runs the
   * helper {@link #HELPER_PATH} as {@code sudo -n HELPER VERB ...}, {@code setuid} runs the
   * helper itself (installed set-user-ID root), {@code direct} runs {@link #ZONECTL} and the
   * {@link #UMOUNT_COMMAND}/{@link #MOUNT_COMMAND} vectors itself (a NodeManager that is root).
   */
  public static final String HELPER_MODE = "locus.zone.helper.mode";
  public static final String HELPER_MODE_DEFAULT = "sudo";

  /** Absolute path of the privileged helper locus-priv (built in {@code locus-priv/}). */
  public static final String HELPER_PATH = "locus.zone.helper.path";
  public static final String HELPER_PATH_DEFAULT = "/usr/local/sbin/locus-priv";

  /**
   * Path of the zonectl binary (built by {@code make -C zonectl}): run by the hook itself for
   * {@code classify} and, with {@code direct}, for everything; through the helper its own
   * configuration names zonectl.
   */
  public static final String ZONECTL = "locus.zone.zonectl";
  public static final String ZONECTL_DEFAULT = "/usr/local/sbin/zonectl";

  /**
   * Directory of zonectl's zone journals (passed as ZONECTL_STATE_DIR) with {@code direct};
   * unset: zonectl's own default, /var/lib/zonectl. Keep it on a file system that survives
   * reboots. Through the helper, which passes no environment on, its configuration's
   * {@code zonectl.state-dir} decides.
   */
  public static final String STATE_DIR = "locus.zone.state-dir";

  /** Block device (or image file) holding the NodeManager's local-dir file system. Required. */
  public static final String DEVICE = "locus.zone.device";

  /** Where that file system is mounted; used by the remount commands as {mount-point}. */
  public static final String MOUNT_POINT = "locus.zone.mount-point";

  /** Size of the outer area, in zonectl's syntax (e.g. 40G, 512M). Required. */
  public static final String OUTER_SIZE = "locus.zone.outer-size";

  /**
   * Ordered {@code regex=temp|perm} pairs, comma separated, tried against the application name
   * in order; the first regex found anywhere in the name decides (anchor with ^ to match a
   * prefix). The split is at the last '=', so a regex may contain '=' but not ','.
   */
  public static final String JOB_CLASSES = "locus.zone.job-classes";
  public static final String JOB_CLASSES_DEFAULT =
      "(?i)^terasort=temp,(?i)^sort=temp,(?i)^teragen=perm";

  /**
   * Directory of measured disk-usage profiles (seed 002 §4.1): if it holds
   * NAME.profile for an application's name (characters other than letters, digits, '.', '_'
   * and '-' written as '_'), {@code zonectl classify} on it decides the class, before
   * {@link #JOB_CLASSES}. Unset: names only.
   */
  public static final String PROFILE_DIR = "locus.zone.profile-dir";

  /** The beta of {@code zonectl classify}: temp if used-after &lt; beta x max-used. */
  public static final String PROFILE_BETA = "locus.zone.profile-beta";
  public static final double PROFILE_BETA_DEFAULT = 0.1;

  /** Class of an application no regex matches, or whose name could not be looked up. */
  public static final String DEFAULT_CLASS = "locus.zone.default-class";
  public static final String DEFAULT_CLASS_DEFAULT = "perm";

  /**
   * Whether the hook unmounts the local-dir file system around each zonectl edit. zonectl
   * edits bitmaps offline only (docs/zone.md, "Online vs offline"), so a mounted local dir
   * needs this; off when the device is not mounted while the hook runs (tests, images).
   */
  public static final String REMOUNT = "locus.zone.remount";
  public static final boolean REMOUNT_DEFAULT = false;

  /**
   * Unmount command with {@code direct}, one argument per comma-separated element; {device},
   * {mount-point}. Through the helper: {@code umount MOUNT}.
   */
  public static final String UMOUNT_COMMAND = "locus.zone.umount-command";
  public static final String UMOUNT_COMMAND_DEFAULT = "umount,{mount-point}";

  /**
   * Mount command with {@code direct}, one argument per comma-separated element; {device},
   * {mount-point}. Through the helper: {@code mount DEV MOUNT}, with the type and options of the
   * helper's mount line.
   */
  public static final String MOUNT_COMMAND = "locus.zone.mount-command";
  public static final String MOUNT_COMMAND_DEFAULT = "mount,{device},{mount-point}";

  /**
   * How the area is set: {@code hold} (online: {@code zonectl hold} on the mounted
   * {@link #MOUNT_POINT}, no unmount), {@code bitmap} (offline: {@code zonectl area} on
   * {@link #DEVICE}, with {@link #REMOUNT}), or {@code auto}: hold when the mount point is set
   * and {@code zonectl hold-status} accepts it at start, else bitmap.
   */
  public static final String METHOD = "locus.zone.method";
  public static final String METHOD_DEFAULT = "auto";

  /**
   * Period of the online monitor (seed 002 §4.3, expand only) while an area is held, in ms;
   * 0 turns it off. Needs the hold method and {@link #MONITOR_EXPAND_BELOW}. The monitor also
   * checks right after an area is set, so a job starts with the room it keeps.
   */
  public static final String MONITOR_INTERVAL_MS = "locus.zone.monitor.interval-ms";
  public static final long MONITOR_INTERVAL_MS_DEFAULT = 0L;

  /** The monitor grows the held area when less than this is free (zonectl size, e.g. 2G). */
  public static final String MONITOR_EXPAND_BELOW = "locus.zone.monitor.expand-below";

  /**
   * Whether the hook records each application's disk-usage profile (seed 002 §4.1: a df
   * series of the local-dir file system, held blocks not counted) as
   * {@link #PROFILE_DIR}/NAME.profile when it stops, so that the next run of the name is
   * classified by it. Needs the hold method and the profile directory.
   */
  public static final String PROFILE_RECORD = "locus.zone.profile-record";
  public static final boolean PROFILE_RECORD_DEFAULT = false;

  /** Sampling period of the recorded profile, in ms. */
  public static final String PROFILE_INTERVAL_MS = "locus.zone.profile-interval-ms";
  public static final long PROFILE_INTERVAL_MS_DEFAULT = 5_000L;

  /**
   * How long after an application stops its profile keeps sampling before it is written, in
   * ms: the NodeManager deletes the application's local directories asynchronously, and the
   * last sample must see that (the seed's used-after).
   */
  public static final String PROFILE_SETTLE_MS = "locus.zone.profile-settle-ms";
  public static final long PROFILE_SETTLE_MS_DEFAULT = 10_000L;

  /** Longest time one zonectl, mount or umount run may take, in milliseconds. */
  public static final String COMMAND_TIMEOUT_MS = "locus.zone.command-timeout-ms";
  public static final long COMMAND_TIMEOUT_MS_DEFAULT = 60_000L;

  /** Longest time the application-name lookup at the ResourceManager may take, in ms. */
  public static final String RM_LOOKUP_TIMEOUT_MS = "locus.zone.rm-lookup-timeout-ms";
  public static final long RM_LOOKUP_TIMEOUT_MS_DEFAULT = 5_000L;
}
