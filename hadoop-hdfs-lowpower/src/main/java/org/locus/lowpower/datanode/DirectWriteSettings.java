package org.locus.lowpower.datanode;

import org.apache.hadoop.conf.Configuration;
import org.locus.lowpower.LowpowerConfigKeys;

/**
 * The direct-write keys, read and checked once when a DataNode builds its dataset. A value that
 * does not parse is an error naming the key and what it accepts, never a silent default.
 */
public final class DirectWriteSettings {
  static final int MIN_BUFFER_BYTES = DirectBlockOutputStream.SAFE_ALIGNMENT;
  static final int MAX_BUFFER_BYTES = 64 << 20;

  private final boolean enabled;
  private final int bufferBytes;

  private DirectWriteSettings(boolean enabled, int bufferBytes) {
    this.enabled = enabled;
    this.bufferBytes = bufferBytes;
  }

  /** @throws IllegalArgumentException naming the key whose value is wrong */
  public static DirectWriteSettings from(Configuration conf) {
    String toggle = conf.getTrimmed(LowpowerConfigKeys.DIRECT_WRITES);
    boolean enabled = LowpowerConfigKeys.DIRECT_WRITES_DEFAULT;
    if (toggle != null) {
      if (!toggle.equalsIgnoreCase("true") && !toggle.equalsIgnoreCase("false")) {
        throw new IllegalArgumentException(LowpowerConfigKeys.DIRECT_WRITES
            + " must be true or false; got '" + toggle + "'");
      }
      enabled = Boolean.parseBoolean(toggle);
    }
    String buffer = conf.getTrimmed(LowpowerConfigKeys.DIRECT_BUFFER_BYTES);
    int bufferBytes = LowpowerConfigKeys.DIRECT_BUFFER_BYTES_DEFAULT;
    if (buffer != null) {
      long parsed;
      try {
        parsed = conf.getLongBytes(LowpowerConfigKeys.DIRECT_BUFFER_BYTES, bufferBytes);
      } catch (RuntimeException e) { // not a number, a bad suffix, or a bare suffix: Hadoop's
        // size parser throws StringIndexOutOfBoundsException on "m" (found by locus-fuzz)
        parsed = -1;
      }
      if (parsed < MIN_BUFFER_BYTES || parsed > MAX_BUFFER_BYTES) {
        throw new IllegalArgumentException(LowpowerConfigKeys.DIRECT_BUFFER_BYTES
            + " must be a size from " + MIN_BUFFER_BYTES + " bytes to 64m; got '" + buffer + "'");
      }
      bufferBytes = (int) parsed;
    }
    return new DirectWriteSettings(enabled, bufferBytes);
  }

  /** @return whether DataNodes write block files with O_DIRECT */
  public boolean enabled() {
    return enabled;
  }

  /** @return the staging buffer of each block being written, bytes */
  public int bufferBytes() {
    return bufferBytes;
  }
}
