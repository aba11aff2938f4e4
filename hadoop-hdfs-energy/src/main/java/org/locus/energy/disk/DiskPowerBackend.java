package org.locus.energy.disk;

import java.io.File;
import java.io.IOException;

/**
 * How the power manager acts on a disk: a real backend runs {@code hdparm}, a simulated one
 * models a datasheet drive. The manager's policy never knows which one it drives.
 */
public interface DiskPowerBackend {

  /** @return a short name for logs and reports, e.g. {@code hdparm} */
  String name();

  /** @return the power draw and spin-up time used for energy accounting */
  DiskPowerProfile profile();

  /**
   * Finds the device under a volume directory.
   *
   * @throws UnsupportedDeviceException if that device cannot be power-managed
   */
  BlockDevice resolve(File volumeDir) throws IOException;

  /** Automatic mode: the drive stops its spindle after {@code idleMillis} idle; 0 = never. */
  void setStandbyTimeout(BlockDevice device, long idleMillis) throws IOException;

  /** Manual mode: stop the spindle now; {@code sleep} = deepest state (needs a reset). */
  void spinDown(BlockDevice device, boolean sleep) throws IOException;

  /**
   * Spin the disk up now, ahead of need (an uncached read of one sector).
   *
   * @throws SpinUpFailedException when the command ran and the disk did not spin up
   */
  void wake(BlockDevice device) throws IOException;
}
