package org.locus.energy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.locus.energy.disk.DiskPowerProfile;

/**
 * Every energy key of {@link EnergyConfigKeys}, parsed and validated once. A bad value is an
 * {@link IllegalArgumentException} whose message names the key, the value and what is allowed;
 * the DataNode plug-in parses its settings when Hadoop instantiates it, so such a value stops
 * the DataNode's start-up with that message instead of silently meaning something else.
 * Immutable.
 */
public final class EnergySettings {

  /** {@link EnergyConfigKeys#BACKEND}. */
  public enum Backend { SIMULATED, HDPARM }

  /** {@link EnergyConfigKeys#MANUAL_COMMAND}: {@code hdparm -y} or {@code hdparm -Y}. */
  public enum ManualCommand { STANDBY, SLEEP }

  /** {@link EnergyConfigKeys#SPINDOWN_POLICY}. */
  public enum SpinDownPolicyName { FIXED, HISTORY }

  /** {@link EnergyConfigKeys#HELPER_MODE}: how hdparm gets root (docs/security.md). */
  public enum HelperMode { SUDO, SETUID, DIRECT }

  private final Backend backend;
  private final boolean accountingOnly;
  private final long pollIntervalMillis;
  private final long standbyTimeoutMillis;
  private final long minResidencyMillis;
  private final double writeGuardOpsPerSecond;
  private final long writeGuardQuietMillis;
  private final ManualCommand manualCommand;
  private final SpinDownPolicyName spinDownPolicy;
  private final boolean predictWake;
  private final long predictLeadMillis;
  private final HelperMode helperMode;
  private final String helperPath;
  private final String hdparmPath;
  private final long commandTimeoutMillis;
  private final long spinUpTimeoutMillis;
  private final String wakeRequestDir;
  private final boolean fastNode;
  private final String awakeDir;
  private final DiskPowerProfile driveProfile;
  private final int[] spindlesPerVolume;
  private final double nodeBaseWatts;
  private final long nameNodePollMillis;
  private final boolean offloadWrites;
  private final long offloadMaxStagedBytes;

  private EnergySettings(Configuration conf) {
    if (conf.getTrimmed(EnergyConfigKeys.REPLICA_DIR) != null) {
      throw new IllegalArgumentException(EnergyConfigKeys.REPLICA_DIR + " (seed 000 §4.3.2) is"
          + " not read: list backup directories as [ARCHIVE] entries of dfs.datanode.data.dir"
          + " instead, e.g. [DISK]file:/data/p,[ARCHIVE]file:/data/b (see docs/energy.md)");
    }
    backend = choice(conf, EnergyConfigKeys.BACKEND, EnergyConfigKeys.BACKEND_DEFAULT,
        Backend.class);
    accountingOnly = bool(conf, EnergyConfigKeys.ACCOUNTING_ONLY,
        EnergyConfigKeys.ACCOUNTING_ONLY_DEFAULT);
    pollIntervalMillis = number(conf, EnergyConfigKeys.POLL_INTERVAL_MS,
        EnergyConfigKeys.POLL_INTERVAL_MS_DEFAULT, 1, 60_000);
    standbyTimeoutMillis = number(conf, EnergyConfigKeys.STANDBY_TIMEOUT_MS,
        EnergyConfigKeys.STANDBY_TIMEOUT_MS_DEFAULT, 1, 21_600_000);
    minResidencyMillis = number(conf, EnergyConfigKeys.MIN_RESIDENCY_MS,
        EnergyConfigKeys.MIN_RESIDENCY_MS_DEFAULT, 0, 86_400_000);
    writeGuardOpsPerSecond = real(conf, EnergyConfigKeys.WRITE_GUARD_OPS_PER_SEC,
        EnergyConfigKeys.WRITE_GUARD_OPS_PER_SEC_DEFAULT, Double.MIN_VALUE, 1e9);
    writeGuardQuietMillis = number(conf, EnergyConfigKeys.WRITE_GUARD_QUIET_MS,
        EnergyConfigKeys.WRITE_GUARD_QUIET_MS_DEFAULT, 0, 86_400_000);
    manualCommand = choice(conf, EnergyConfigKeys.MANUAL_COMMAND,
        EnergyConfigKeys.MANUAL_COMMAND_DEFAULT, ManualCommand.class);
    spinDownPolicy = choice(conf, EnergyConfigKeys.SPINDOWN_POLICY,
        EnergyConfigKeys.SPINDOWN_POLICY_DEFAULT, SpinDownPolicyName.class);
    predictWake = bool(conf, EnergyConfigKeys.PREDICT_WAKE,
        EnergyConfigKeys.PREDICT_WAKE_DEFAULT);
    hdparmPath = conf.getTrimmed(EnergyConfigKeys.HDPARM_PATH,
        EnergyConfigKeys.HDPARM_PATH_DEFAULT);
    if (hdparmPath.isEmpty()) {
      throw new IllegalArgumentException(EnergyConfigKeys.HDPARM_PATH
          + " must name the hdparm executable, got an empty value");
    }
    if (conf.getTrimmed(EnergyConfigKeys.HDPARM_SUDO) != null) {
      throw new IllegalArgumentException(EnergyConfigKeys.HDPARM_SUDO + " is not read: hdparm "
          + "under sudo needed a sudoers line that allows any hdparm option on any device. "
          + "Remove it; " + EnergyConfigKeys.HELPER_MODE + "=sudo (the default) runs the "
          + "helper locus-priv instead (docs/security.md)");
    }
    helperMode = choice(conf, EnergyConfigKeys.HELPER_MODE,
        EnergyConfigKeys.HELPER_MODE_DEFAULT, HelperMode.class);
    helperPath = conf.getTrimmed(EnergyConfigKeys.HELPER_PATH,
        EnergyConfigKeys.HELPER_PATH_DEFAULT);
    if (!helperPath.startsWith("/")) {
      throw new IllegalArgumentException(EnergyConfigKeys.HELPER_PATH + " must be an absolute "
          + "path (the sudoers line names the helper by it), got '" + helperPath + "'");
    }
    commandTimeoutMillis = number(conf, EnergyConfigKeys.COMMAND_TIMEOUT_MS,
        EnergyConfigKeys.COMMAND_TIMEOUT_MS_DEFAULT, 1, 3_600_000);
    wakeRequestDir = absolutePath(conf, EnergyConfigKeys.WAKE_REQUEST_DIR,
        EnergyConfigKeys.WAKE_REQUEST_DIR_DEFAULT);
    fastNode = bool(conf, EnergyConfigKeys.FAST_NODE, EnergyConfigKeys.FAST_NODE_DEFAULT);
    awakeDir = absolutePath(conf, EnergyConfigKeys.AWAKE_DIR,
        EnergyConfigKeys.AWAKE_DIR_DEFAULT);
    if (awakeDir.equals(wakeRequestDir)) {
      throw new IllegalArgumentException(EnergyConfigKeys.AWAKE_DIR + " and "
          + EnergyConfigKeys.WAKE_REQUEST_DIR + " must be different directories; both are '"
          + awakeDir + "'");
    }
    DiskPowerProfile d = DiskPowerProfile.BARRACUDA_7200_14;
    driveProfile = new DiskPowerProfile(
        real(conf, EnergyConfigKeys.ACTIVE_WATTS, d.activeWatts(), 0, 1000),
        real(conf, EnergyConfigKeys.IDLE_WATTS, d.idleWatts(), 0, 1000),
        real(conf, EnergyConfigKeys.STANDBY_WATTS, d.standbyWatts(), 0, 1000),
        real(conf, EnergyConfigKeys.SPINUP_WATTS, d.spinUpWatts(), 0, 1000),
        number(conf, EnergyConfigKeys.SPINUP_MS, d.spinUpMillis(), 0, 600_000));
    spinUpTimeoutMillis = number(conf, EnergyConfigKeys.SPINUP_TIMEOUT_MS,
        Math.min(EnergyConfigKeys.SPINUP_TIMEOUT_MS_MAX,
            Math.max(EnergyConfigKeys.SPINUP_TIMEOUT_MS_FLOOR,
                EnergyConfigKeys.SPINUP_TIMEOUT_FACTOR * driveProfile.spinUpMillis())),
        1, EnergyConfigKeys.SPINUP_TIMEOUT_MS_MAX);
    // a bound below a healthy spin-up would fail every disk it wakes
    if (spinUpTimeoutMillis < driveProfile.spinUpMillis()) {
      throw new IllegalArgumentException(EnergyConfigKeys.SPINUP_TIMEOUT_MS + " must be from "
          + driveProfile.spinUpMillis() + " (the drive's spin-up time, "
          + EnergyConfigKeys.SPINUP_MS + ") to " + EnergyConfigKeys.SPINUP_TIMEOUT_MS_MAX
          + "; got " + spinUpTimeoutMillis);
    }
    predictLeadMillis = number(conf, EnergyConfigKeys.PREDICT_LEAD_MS,
        driveProfile.spinUpMillis(), 0, 3_600_000);
    spindlesPerVolume = spindles(conf);
    nodeBaseWatts = real(conf, EnergyConfigKeys.NODE_BASE_WATTS,
        EnergyConfigKeys.NODE_BASE_WATTS_DEFAULT, 0, 100_000);
    nameNodePollMillis = number(conf, EnergyConfigKeys.NAMENODE_POLL_INTERVAL_MS,
        EnergyConfigKeys.NAMENODE_POLL_INTERVAL_MS_DEFAULT, 1, 600_000);
    offloadWrites = bool(conf, EnergyConfigKeys.OFFLOAD_WRITES,
        EnergyConfigKeys.OFFLOAD_WRITES_DEFAULT);
    offloadMaxStagedBytes = number(conf, EnergyConfigKeys.OFFLOAD_MAX_STAGED_MB,
        EnergyConfigKeys.OFFLOAD_MAX_STAGED_MB_DEFAULT, 1, 1L << 30) << 20;
  }

  /**
   * @return the settings the configuration holds
   * @throws IllegalArgumentException naming the first key whose value is not allowed
   */
  public static EnergySettings from(Configuration conf) {
    return new EnergySettings(conf);
  }

  private static <E extends Enum<E>> E choice(Configuration conf, String key, String dflt,
      Class<E> type) {
    String value = conf.getTrimmed(key, dflt);
    try {
      return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + " must be one of " + Arrays.stream(
          type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT))
          .collect(Collectors.joining(", ")) + "; got '" + value + "'");
    }
  }

  private static String absolutePath(Configuration conf, String key, String dflt) {
    String value = conf.getTrimmed(key, dflt);
    if (!value.startsWith("/")) {
      throw new IllegalArgumentException(key + " must be an absolute HDFS path, got '" + value
          + "'");
    }
    return value;
  }

  private static boolean bool(Configuration conf, String key, boolean dflt) {
    String value = conf.getTrimmed(key);
    if (value == null) {
      return dflt;
    }
    if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new IllegalArgumentException(key + " must be true or false; got '" + value + "'");
  }

  private static long number(Configuration conf, String key, long dflt, long min, long max) {
    String value = conf.getTrimmed(key);
    long n;
    try {
      n = value == null ? dflt : Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number from " + min + " to "
          + max + "; got '" + value + "'");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(key + " must be from " + min + " to " + max
          + "; got " + n);
    }
    return n;
  }

  private static double real(Configuration conf, String key, double dflt, double min,
      double max) {
    String value = conf.getTrimmed(key);
    double x;
    try {
      x = value == null ? dflt : Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number from " + min + " to " + max
          + "; got '" + value + "'");
    }
    if (!(x >= min && x <= max)) {
      throw new IllegalArgumentException(key + " must be from " + (min == Double.MIN_VALUE
          ? "above 0" : Double.toString(min)) + " to " + max + "; got " + value);
    }
    return x;
  }

  private static int[] spindles(Configuration conf) {
    List<Integer> counts = new ArrayList<>();
    for (String s : conf.getTrimmedStrings(EnergyConfigKeys.SPINDLES_PER_VOLUME)) {
      int n;
      try {
        n = Integer.parseInt(s);
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1 || n > 64) {
        throw new IllegalArgumentException(EnergyConfigKeys.SPINDLES_PER_VOLUME
            + " must list drive counts from 1 to 64, one per volume; got '" + s + "'");
      }
      counts.add(n);
    }
    return counts.stream().mapToInt(Integer::intValue).toArray();
  }

  public Backend backend() {
    return backend;
  }

  public boolean accountingOnly() {
    return accountingOnly;
  }

  public long pollIntervalMillis() {
    return pollIntervalMillis;
  }

  public long standbyTimeoutMillis() {
    return standbyTimeoutMillis;
  }

  public long minResidencyMillis() {
    return minResidencyMillis;
  }

  public double writeGuardOpsPerSecond() {
    return writeGuardOpsPerSecond;
  }

  public long writeGuardQuietMillis() {
    return writeGuardQuietMillis;
  }

  public ManualCommand manualCommand() {
    return manualCommand;
  }

  public SpinDownPolicyName spinDownPolicy() {
    return spinDownPolicy;
  }

  public boolean predictWake() {
    return predictWake;
  }

  /** @return the predictor's lead time; the drive's spin-up time when the key is unset */
  public long predictLeadMillis() {
    return predictLeadMillis;
  }

  public String hdparmPath() {
    return hdparmPath;
  }

  public HelperMode helperMode() {
    return helperMode;
  }

  public String helperPath() {
    return helperPath;
  }

  public long commandTimeoutMillis() {
    return commandTimeoutMillis;
  }

  /**
   * @return how long a wake may run before the disk counts as not spinning up; by default
   *     three times the drive's spin-up time
   */
  public long spinUpTimeoutMillis() {
    return spinUpTimeoutMillis;
  }

  public String wakeRequestDir() {
    return wakeRequestDir;
  }

  /** @return whether the fast-node rule is on ({@link EnergyConfigKeys#FAST_NODE}) */
  public boolean fastNode() {
    return fastNode;
  }

  /** @return the HDFS directory of the awake-backup lists */
  public String awakeDir() {
    return awakeDir;
  }

  /** @return one drive's power model: the Barracuda datasheet with the keys' overrides */
  public DiskPowerProfile driveProfile() {
    return driveProfile;
  }

  /** @return drives behind the volume at {@code index} in data-dir order (1 when unlisted) */
  public int spindles(int index) {
    return index < spindlesPerVolume.length ? spindlesPerVolume[index] : 1;
  }

  public double nodeBaseWatts() {
    return nodeBaseWatts;
  }

  public long nameNodePollMillis() {
    return nameNodePollMillis;
  }

  /** @return true when pipeline writes to a sleeping backup are staged on a primary volume */
  public boolean offloadWrites() {
    return offloadWrites;
  }

  /** @return most bytes a DataNode stages for its sleeping backups */
  public long offloadMaxStagedBytes() {
    return offloadMaxStagedBytes;
  }
}
