package org.locus.zone.yarn.mechanism;

import java.io.IOException;

/**
 * An area set on the mounted local-dir file system, which can change while jobs write to it
 * ({@link ZoneMechanism#online}). The service's monitor and profile recorder use it from their
 * timer thread, under the service's lock.
 */
public interface OnlineArea {

  /** The mount point of the file system the area is set on. */
  String mountPoint();

  /**
   * One check of the dynamic usable area (seed 002 §4.3, expand only): when less than
   * {@code expandBelow} is free in the area, it grows until that much is, by punching only, so
   * that running containers never see a full file system.
   *
   * @param expandBelow free space in zonectl's syntax ({@code 2G})
   * @return zonectl's line, {@code action=expand|keep start=B end=B free_blocks=N}
   */
  String growIfShort(String expandBelow) throws IOException;

  /**
   * The local-dir usage a disk-usage profile records (seed 002 §4.1): {@code df}'s used space
   * less the blocks that keep the area, which are zonectl's and not a job's.
   */
  UsageSource usage();
}
