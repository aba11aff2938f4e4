package org.locus.netns;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rates as a user types them. Link rates use tc's words ({@code 500kbit}, {@code 10mbit},
 * {@code 1gbit}; decimal, bits per second); disk rates are bytes per second with a decimal
 * unit ({@code 20MB/s}, {@code 500kB/s}, {@code 1GB/s}). {@code none} means unlimited.
 */
public final class Rate {
  private static final Pattern LINK = Pattern.compile("(\\d+)(kbit|mbit|gbit)");
  private static final Pattern DISK = Pattern.compile("(\\d+)(kb|mb|gb)/s");

  private Rate() {
  }

  /**
   * @return the link rate in bits per second, 0 for {@code none}
   * @throws IllegalArgumentException naming the option and the accepted forms
   */
  public static long linkBitsPerSecond(String option, String text) {
    String word = text.trim().toLowerCase(Locale.ROOT);
    if (word.equals("none")) {
      return 0;
    }
    Matcher m = LINK.matcher(word);
    if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
      throw new IllegalArgumentException("unknown rate '" + text + "' for --" + option
          + "; expected none or a positive number with kbit, mbit or gbit, e.g. 10mbit");
    }
    return Long.parseLong(m.group(1)) * scale(m.group(2).charAt(0));
  }

  /**
   * @return the disk rate in bytes per second, 0 for {@code none}
   * @throws IllegalArgumentException naming the option and the accepted forms
   */
  public static long diskBytesPerSecond(String option, String text) {
    String word = text.trim().toLowerCase(Locale.ROOT);
    if (word.equals("none")) {
      return 0;
    }
    Matcher m = DISK.matcher(word);
    if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
      throw new IllegalArgumentException("unknown rate '" + text + "' for --" + option
          + "; expected none or a positive number with kB/s, MB/s or GB/s, e.g. 20MB/s");
    }
    return Long.parseLong(m.group(1)) * scale(m.group(2).charAt(0));
  }

  /** @return a link rate in tc's words, {@code none} for 0 */
  public static String formatLink(long bitsPerSecond) {
    if (bitsPerSecond == 0) {
      return "none";
    }
    return bitsPerSecond % 1_000_000 == 0 ? bitsPerSecond / 1_000_000 + "mbit"
        : bitsPerSecond / 1000 + "kbit";
  }

  /** @return a disk rate as typed, {@code none} for 0 */
  public static String formatDisk(long bytesPerSecond) {
    if (bytesPerSecond == 0) {
      return "none";
    }
    return bytesPerSecond % 1_000_000 == 0 ? bytesPerSecond / 1_000_000 + "MB/s"
        : bytesPerSecond / 1000 + "kB/s";
  }

  private static long scale(char unit) {
    return unit == 'k' ? 1000L : unit == 'm' ? 1_000_000L : 1_000_000_000L;
  }
}
