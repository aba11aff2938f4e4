package org.locus.energy.disk;

import java.io.File;

/**
 * The block device that holds a DataNode volume.
 *
 * @param volumeDir the volume's directory
 * @param devicePath the device node, e.g. {@code /dev/sdb}, or a {@code sim:} name
 */
public record BlockDevice(File volumeDir, String devicePath) {
  @Override
  public String toString() {
    return devicePath + " (volume " + volumeDir + ")";
  }
}
