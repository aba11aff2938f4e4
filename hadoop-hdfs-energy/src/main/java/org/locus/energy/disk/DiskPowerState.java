package org.locus.energy.disk;

/** Power state of one disk, as the power manager models it (seed 000 §4.3.2). */
public enum DiskPowerState {
  /** Spinning and transferring data. */
  ACTIVE,
  /** Spinning, no I/O in the last sampling interval. */
  IDLE,
  /** Spindle stopped (hdparm -y / -Y or the drive's -S timer); electronics on. */
  STANDBY,
  /** Spinning up after an access or a wake command; I/O waits. */
  WAKING
}
