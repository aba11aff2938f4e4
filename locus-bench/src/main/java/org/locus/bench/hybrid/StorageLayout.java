package org.locus.bench.hybrid;

import java.util.List;

/**
 * The three layouts the hybrid bench compares (seed 000 §2.3.3), as netns node devices: each
 * DataNode volume a loop device, plus the NodeManager's {@code nmlocal} device for intermediate
 * data. "Fast" devices are throttled at the SSD rate, "slow" ones at the HDD rate.
 */
enum StorageLayout {
  /** Input and output on an SSD volume (ALL_SSD under the bench's root), DISK volume and
   *  intermediate data on HDD. */
  HYBRID("hybrid", List.of("SSD", "DISK"), false),
  /** Every device fast: SSD volume, intermediate data on SSD too. */
  SSD_ONLY("ssd-only", List.of("SSD"), true),
  /** Every device slow. */
  HDD_ONLY("hdd-only", List.of("DISK"), false);

  private final String label;
  private final List<String> volumes;
  private final boolean intermediateOnSsd;

  StorageLayout(String label, List<String> volumes, boolean intermediateOnSsd) {
    this.label = label;
    this.volumes = volumes;
    this.intermediateOnSsd = intermediateOnSsd;
  }

  String label() {
    return label;
  }

  /** @return the DataNode volumes' storage types, one device each */
  List<String> volumes() {
    return volumes;
  }

  /** @return whether the NodeManager's local-dir device ({@code nmlocal}) emulates an SSD */
  boolean intermediateOnSsd() {
    return intermediateOnSsd;
  }

  /** @return the throttle of every device but SSD volumes' (DISK volumes, nmlocal) */
  long otherDeviceRate(long ssdRate, long hddRate) {
    return intermediateOnSsd ? ssdRate : hddRate;
  }

  /**
   * @return the paths given ALL_SSD: the profile's {@code /hybrid}; the whole namespace when
   *     every volume is SSD (HDFS's default policy, HOT, could place nothing there); none
   */
  String ssdPaths() {
    return switch (this) {
      case HYBRID -> "/hybrid";
      case SSD_ONLY -> "/";
      case HDD_ONLY -> "";
    };
  }

  /** @return the bench root: under the profile's SSD path for the hybrid layout */
  String root() {
    return this == HYBRID ? "/hybrid/bench" : "/bench";
  }

  static StorageLayout of(String label) {
    for (StorageLayout layout : values()) {
      if (layout.label.equals(label)) {
        return layout;
      }
    }
    throw new IllegalArgumentException("unknown layout '" + label + "'; one of hybrid,"
        + " ssd-only, hdd-only");
  }
}
