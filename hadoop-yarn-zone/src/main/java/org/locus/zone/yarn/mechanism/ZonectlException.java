package org.locus.zone.yarn.mechanism;

import java.io.IOException;

/**
 * zonectl exited non-zero, or the privileged helper refused to run it. The message names the
 * command, the device, zonectl's (or the helper's) own words and what to do;
 * {@link #exitCode()} is zonectl's exit code (see {@code zonectl --help}) or the helper's
 * (200-206, docs/security.md).
 */
public final class ZonectlException extends IOException {
  private static final long serialVersionUID = 1L;

  public static final int USAGE = 1;
  public static final int NOT_EXT = 2;
  public static final int MOUNTED = 3;
  public static final int RANGE = 4;
  public static final int JOURNAL = 5;
  public static final int PERMISSION = 6;
  public static final int IO = 7;
  public static final int INCONSISTENT = 8;
  public static final int WRONG_STATE = 9;

  private final int exitCode;

  ZonectlException(String command, String device, int exitCode, String stderr,
      boolean helperRefused) {
    super(helperRefused
        ? "zonectl " + command + " " + device + " was refused by the privileged helper (exit "
            + exitCode + "): " + stderr.strip() + " -- its root-owned configuration must list "
            + device + " (zonectl.devices or zonectl.mounts) and allow the NodeManager's user"
            + " (docs/security.md)"
        : "zonectl " + command + " " + device + " failed with exit " + exitCode + " ("
            + meaning(exitCode) + "): " + stderr.strip() + " -- " + advice(exitCode, device));
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }

  static String meaning(int code) {
    switch (code) {
      case USAGE: return "bad usage";
      case NOT_EXT: return "not a supported ext2/ext3/ext4 file system";
      case MOUNTED: return "device is mounted or in use";
      case RANGE: return "range outside the file system";
      case JOURNAL: return "zone journal problem";
      case PERMISSION: return "permission denied";
      case IO: return "I/O error";
      case INCONSISTENT: return "file system metadata inconsistent";
      case WRONG_STATE: return "operation does not fit the current state";
      default: return "unknown exit code";
    }
  }

  private static String advice(int code, String device) {
    switch (code) {
      case USAGE: return "check locus.zone.outer-size and the zonectl version";
      case NOT_EXT: return "point locus.zone.device at the ext2/3/4 local-dir file system";
      case MOUNTED: return "zonectl edits offline only: unmount " + device
          + " first, or set locus.zone.remount=true";
      case RANGE: return "locus.zone.outer-size does not fit " + device;
      case JOURNAL: return "run 'zonectl recover " + device + "' (unmounted)";
      case PERMISSION: return "run zonectl through the helper (locus.zone.helper.mode, "
          + "docs/security.md) or give the NodeManager write access to " + device
          + " and the zonectl state directory";
      case IO: return "check " + device + " and the kernel log";
      case INCONSISTENT: return "run 'e2fsck -f " + device + "' (unmounted)";
      case WRONG_STATE: return "run 'zonectl status " + device + "' to see its state";
      default: return "see 'zonectl --help'";
    }
  }
}
