package org.locus.energy.disk;

import java.io.IOException;

/**
 * A wake command ran and the disk did not spin up: hdparm's own read of sector 0 failed, or it
 * did not finish within the spin-up bound and was killed. Not a refusal of the privileged
 * helper, sudo or the device's type (those say nothing about the disk): the power manager takes
 * such a disk out of service as a failed volume (docs/energy.md, "A backup disk that will not
 * spin up").
 */
public class SpinUpFailedException extends IOException {
  private static final long serialVersionUID = 1L;

  public SpinUpFailedException(String message) {
    super(message);
  }
}
