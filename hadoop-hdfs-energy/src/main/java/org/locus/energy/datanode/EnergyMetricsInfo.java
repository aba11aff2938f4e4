package org.locus.energy.datanode;

import org.apache.hadoop.metrics2.MetricsInfo;

/**
 * The names of the energy module's metrics, in one place for the source that publishes them
 * ({@link EnergyMetricsSource}) and everything that reads them back over JMX (the benches,
 * the tests): the source's name per DataNode, its two records, their tags and their values. As
 * Hadoop's own metrics enums do, each constant's name is the metric's name.
 */
public enum EnergyMetricsInfo implements MetricsInfo {
  Host("DataNode host"),
  Volume("volume directory"),
  Device("block device"),
  Role("primary or backup"),
  State("current power state"),
  ActiveMillis("time transferring"),
  IdleMillis("time spinning idle"),
  StandbyMillis("time in standby"),
  WakingMillis("time spinning up"),
  EnergyJoules("energy from state residency"),
  BaselineJoules("energy if always spinning"),
  SpinUps("spin-ups"),
  DemandStallMillis("spin-up time accesses waited"),
  SpinDownAfterMillis("idle time after which the disk goes to standby now (policy's choice)"),
  SpinUpFailed("1 when the disk did not spin up when woken and was taken out of service"),
  PredictedWakes("times the predictor woke this node's backups"),
  PrimaryFailures("primary volumes failed"),
  SpinUpFailures("backup disks that did not spin up, taken out of service"),
  StagedReplicas("replicas staged on a primary volume for a sleeping backup"),
  OffloadedReplicas("replicas written to a primary volume instead of a sleeping backup"),
  MovedReplicas("staged replicas moved to their backup");

  /** Every DataNode's source is this prefix and the DataNode's address. */
  public static final String SOURCE_PREFIX = "LocusEnergy-";
  /** The record of one disk (one per disk, first). */
  public static final String DISK_RECORD = "LocusDisk";
  /** The record of the node (last). */
  public static final String NODE_RECORD = "LocusEnergyNode";
  /** {@link #Role}'s value of a backup disk. */
  public static final String BACKUP = "backup";
  /** {@link #Role}'s value of a primary disk. */
  public static final String PRIMARY = "primary";

  private final String description;

  EnergyMetricsInfo(String description) {
    this.description = description;
  }

  @Override
  public String description() {
    return description;
  }

  /**
   * @param dataNodeDisplayName a DataNode's {@code host:port}
   * @return the name of that DataNode's energy metrics source
   */
  public static String sourceName(String dataNodeDisplayName) {
    return SOURCE_PREFIX + dataNodeDisplayName.replace(':', '-');
  }

  /** @return the name a tag of this name has in Hadoop's JMX view of a record */
  public String jmxTag() {
    return "tag." + name();
  }
}
