package org.locus.hybrid;

/**
 * The hybrid profile's configuration keys (conf/features/hybrid.xml; docs/hybrid.md), in the
 * one {@code *Keys} class the docs test reads, like every other module's.
 */
public final class HybridConfigKeys {
  /** Absolute HDFS paths, comma separated, whose files live on SSD volumes. */
  public static final String SSD_PATHS = "locus.hybrid.ssd.paths";
  public static final String SSD_PATHS_DEFAULT = "/hybrid";
  /** The stock storage policy of those paths: {@code ALL_SSD} or {@code ONE_SSD}. */
  public static final String SSD_POLICY = "locus.hybrid.ssd.policy";
  public static final String SSD_POLICY_DEFAULT = "ALL_SSD";

  private HybridConfigKeys() {
  }
}
