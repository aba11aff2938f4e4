package org.locus.energy;

/**
 * Every configuration key of energy-efficient HDFS (seed 000, ch. 4), with its default and a
 * one-line meaning. {@code conf/features/energy.xml} is the documented set a cluster turns on;
 * {@code docs/energy.md} explains each key.
 *
 * <p>The feature itself is switched on with stock Hadoop keys (see {@link #STOCK_KEYS}); the
 * keys below tune the backup-disk power manager that runs as a DataNode plug-in.
 */
public final class EnergyConfigKeys {
  private EnergyConfigKeys() {
  }

  /**
   * Seed §4.3.2's backup-replica directories. Not read: Hadoop tags volumes in
   * {@code dfs.datanode.data.dir} ({@code [ARCHIVE]file:/b}); a value set here is an error.
   */
  public static final String REPLICA_DIR = "dfs.replica.dir";

  /** Disk backend: {@code simulated} (datasheet model) or {@code hdparm} (real drives). */
  public static final String BACKEND = "locus.energy.disk.backend";
  public static final String BACKEND_DEFAULT = "hdparm";

  /** Only account energy, never spin a disk down (the "native" all-disks-active baseline). */
  public static final String ACCOUNTING_ONLY = "locus.energy.accounting.only";
  public static final boolean ACCOUNTING_ONLY_DEFAULT = false;

  /** How often the power manager samples volume activity and advances disk states (ms). */
  public static final String POLL_INTERVAL_MS = "locus.energy.poll.interval.ms";
  public static final long POLL_INTERVAL_MS_DEFAULT = 250;

  /** Idle time after which a backup disk goes to standby in automatic mode (hdparm -S), ms. */
  public static final String STANDBY_TIMEOUT_MS = "locus.energy.standby.timeout.ms";
  public static final long STANDBY_TIMEOUT_MS_DEFAULT = 60_000;

  /** Least time a disk stays up after spinning up, so it does not thrash (ms). */
  public static final String MIN_RESIDENCY_MS = "locus.energy.min.residency.ms";
  public static final long MIN_RESIDENCY_MS_DEFAULT = 10_000;

  /** Write operations per second on a backup disk that mean "bulk import": manual mode. */
  public static final String WRITE_GUARD_OPS_PER_SEC = "locus.energy.write.guard.ops.per.sec";
  public static final double WRITE_GUARD_OPS_PER_SEC_DEFAULT = 2.0;

  /** Write-free time that ends a bulk import; then the disk is forced to standby (ms). */
  public static final String WRITE_GUARD_QUIET_MS = "locus.energy.write.guard.quiet.ms";
  public static final long WRITE_GUARD_QUIET_MS_DEFAULT = 10_000;

  /** Manual spin-down command: {@code standby} (hdparm -y) or {@code sleep} (hdparm -Y). */
  public static final String MANUAL_COMMAND = "locus.energy.manual.command";
  public static final String MANUAL_COMMAND_DEFAULT = "standby";

  /** Spin-down timing: {@code fixed} (the drive's timer) or {@code history} (idle-gap model). */
  public static final String SPINDOWN_POLICY = "locus.energy.spindown.policy";
  public static final String SPINDOWN_POLICY_DEFAULT = "fixed";

  /** Seed §4.3.3: wake a node's backups once its primary data has all been read. */
  public static final String PREDICT_WAKE = "locus.energy.predict.wake";
  public static final boolean PREDICT_WAKE_DEFAULT = false;

  /**
   * How long before the projected end of the primary drain the predictor wakes the backups
   * (ms); unset = the drive's spin-up time, 0 = the seed's last-block rule alone.
   */
  public static final String PREDICT_LEAD_MS = "locus.energy.predict.lead.ms";

  /**
   * How often the NameNode plug-in ({@code NodeLossWakeNotifier}) looks for DataNodes that
   * went stale, dead, or into decommission or maintenance (ms).
   */
  public static final String NAMENODE_POLL_INTERVAL_MS = "locus.energy.namenode.poll.interval.ms";
  public static final long NAMENODE_POLL_INTERVAL_MS_DEFAULT = 1000;

  /**
   * Seed §4.3.1 wake reason 2, the fast node: a DataNode publishes which of its backup volumes
   * are spinning, the NameNode then sends that node's own readers to those backups before any
   * remote primary, and maps under the Locus AM with {@code BackupLocalTaskPlacement} take a
   * host's backup-local maps once its primary ones are gone.
   */
  public static final String FAST_NODE = "locus.energy.fast.node";
  public static final boolean FAST_NODE_DEFAULT = true;

  /** HDFS directory where each DataNode lists its spinning backup volumes (one file per host). */
  public static final String AWAKE_DIR = "locus.energy.awake.dir";
  public static final String AWAKE_DIR_DEFAULT = "/system/locus-energy/awake";

  /**
   * Write off-loading: while a backup volume sleeps, a pipeline write meant for it is written to
   * this node's primary ({@code DISK}) volume instead and moved onto the backup once the backup
   * is awake for another reason. Needs {@link #OFFLOADING_FACTORY} as the DataNode's dataset
   * factory.
   */
  public static final String OFFLOAD_WRITES = "locus.energy.offload.writes";
  public static final boolean OFFLOAD_WRITES_DEFAULT = false;

  /**
   * Most data a DataNode keeps staged for its sleeping backups (MiB, counted at the block size,
   * an upper bound); beyond it writes go to the backup, which wakes it and starts the move.
   */
  public static final String OFFLOAD_MAX_STAGED_MB = "locus.energy.offload.max.staged.mb";
  public static final long OFFLOAD_MAX_STAGED_MB_DEFAULT = 4096;

  /**
   * The dataset factory the off-loading factory builds on (default Hadoop's own), so that
   * another factory, e.g. lowpower's direct writes, can run underneath it.
   */
  public static final String OFFLOAD_INNER_FACTORY = "locus.energy.offload.inner.factory";

  /** Value of {@code dfs.datanode.fsdataset.factory} that makes write off-loading possible. */
  public static final String OFFLOADING_FACTORY =
      "org.locus.energy.datanode.offload.WriteOffloadingDatasetFactory";

  /**
   * How the DataNode gets root for its power commands (docs/security.md): {@code sudo} runs the
   * helper {@link #HELPER_PATH} as {@code sudo -n HELPER VERB DEVICE ...}, {@code setuid} runs
   * the helper itself (installed set-user-ID root), {@code direct} runs {@link #HDPARM_PATH}
   * (a DataNode that is root already, or tests).
   */
  public static final String HELPER_MODE = "locus.energy.helper.mode";
  public static final String HELPER_MODE_DEFAULT = "sudo";

  /** Absolute path of the privileged helper locus-priv (built in {@code locus-priv/}). */
  public static final String HELPER_PATH = "locus.energy.helper.path";
  public static final String HELPER_PATH_DEFAULT = "/usr/local/sbin/locus-priv";

  /** Path of the hdparm executable for {@code direct} (found on PATH when relative). */
  public static final String HDPARM_PATH = "locus.energy.hdparm.path";
  public static final String HDPARM_PATH_DEFAULT = "hdparm";

  /**
   * Not read: hdparm under sudo needed a sudoers line with wildcards (any option on any
   * device); the DataNode refuses to start while it is set and names {@link #HELPER_MODE}.
   */
  public static final String HDPARM_SUDO = "locus.energy.hdparm.sudo";

  /** Longest an hdparm invocation may run before it is killed (ms). */
  public static final String COMMAND_TIMEOUT_MS = "locus.energy.command.timeout.ms";
  public static final long COMMAND_TIMEOUT_MS_DEFAULT = 30_000;

  /**
   * Longest a wake ({@code hdparm --read-sector 0}) may take before the disk counts as one that
   * will not spin up: the command is killed, the disk is marked failed and its volume is taken
   * out of service (ms). Unset = {@link #SPINUP_TIMEOUT_FACTOR} times the drive's spin-up time
   * ({@link #SPINUP_MS}), at least {@link #SPINUP_TIMEOUT_MS_FLOOR}; allowed from that spin-up
   * time to {@link #SPINUP_TIMEOUT_MS_MAX}. Replaces {@link #COMMAND_TIMEOUT_MS} for wakes only.
   */
  public static final String SPINUP_TIMEOUT_MS = "locus.energy.spinup.timeout.ms";
  public static final int SPINUP_TIMEOUT_FACTOR = 3;
  public static final long SPINUP_TIMEOUT_MS_FLOOR = 1000;
  public static final long SPINUP_TIMEOUT_MS_MAX = 600_000;

  /** HDFS directory where {@code locus energy wake} drops wake requests. */
  public static final String WAKE_REQUEST_DIR = "locus.energy.wake.request.dir";
  public static final String WAKE_REQUEST_DIR_DEFAULT = "/system/locus-energy/wake";

  /** Per-disk power in watts while transferring data (datasheet, see DiskPowerProfile). */
  public static final String ACTIVE_WATTS = "locus.energy.disk.active.watts";
  /** Per-disk power in watts while spinning without I/O. */
  public static final String IDLE_WATTS = "locus.energy.disk.idle.watts";
  /** Per-disk power in watts in standby (spindle stopped). */
  public static final String STANDBY_WATTS = "locus.energy.disk.standby.watts";
  /** Per-disk power in watts while spinning up. */
  public static final String SPINUP_WATTS = "locus.energy.disk.spinup.watts";
  /** Time from standby to ready (ms). */
  public static final String SPINUP_MS = "locus.energy.disk.spinup.ms";

  /**
   * Drives behind each volume, in {@code dfs.datanode.data.dir} order, e.g. {@code 1,3} for a
   * primary disk and a 3-drive RAID-5 backup array (seed §4.3.3); missing entries are 1.
   */
  public static final String SPINDLES_PER_VOLUME = "locus.energy.disk.spindles.per.volume";

  /** Whole-node power model: watts a node draws besides its disks (CPU, memory, board). */
  public static final String NODE_BASE_WATTS = "locus.energy.node.base.watts";
  public static final double NODE_BASE_WATTS_DEFAULT = 40.0;

  /**
   * Stock Hadoop keys and the values that turn the feature on: WARM = first replica on DISK
   * (primary), every further one on ARCHIVE (backup); readers sorted primaries first; the power
   * manager as a DataNode plug-in; the node-loss wake notifier and the follower of awake
   * backups (the fast node) as NameNode plug-ins; per-volume I/O counters.
   */
  public static final String[][] STOCK_KEYS = {
      {"dfs.storage.default.policy", "WARM"},
      {"dfs.net.topology.impl", "org.locus.energy.namenode.PrimaryFirstNetworkTopology"},
      {"dfs.namenode.read.considerStorageType", "true"},
      {"dfs.datanode.plugins", "org.locus.energy.datanode.BackupDiskPowerManager"},
      {"dfs.namenode.plugins", "org.locus.energy.namenode.NodeLossWakeNotifier,"
          + "org.locus.energy.namenode.AwakeBackupsFollower"},
      {"dfs.datanode.fileio.profiling.sampling.percentage", "100"},
  };
}
