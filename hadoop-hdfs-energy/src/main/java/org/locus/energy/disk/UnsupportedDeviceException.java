package org.locus.energy.disk;

import java.io.IOException;

/**
 * A volume's device cannot be power-managed (a loop or virtio device, a RAM disk, a file system
 * with no block device). The power manager leaves such a disk alone, keeps accounting it as
 * always spinning, and the DataNode keeps serving.
 */
public class UnsupportedDeviceException extends IOException {
  private static final long serialVersionUID = 1L;

  public UnsupportedDeviceException(String message) {
    super(message);
  }
}
