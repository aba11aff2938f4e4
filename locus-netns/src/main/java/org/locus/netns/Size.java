package org.locus.netns;

import java.util.Locale;

/** A node's memory or disk size as typed on a command line: {@code 512m}, {@code 2g}. */
public final class Size {
  private Size() {
  }

  /**
   * @param option the option's name, for the message
   * @return the size in bytes
   * @throws IllegalArgumentException naming the option when {@code text} is not a size
   */
  public static long bytes(String option, String text) {
    String word = text.trim().toLowerCase(Locale.ROOT);
    if (!word.matches("[1-9][0-9]*[mg]")) {
      throw new IllegalArgumentException("--" + option + " needs a size like 512m or 2g, got '"
          + text + "'");
    }
    long n = Long.parseLong(word.substring(0, word.length() - 1));
    return word.endsWith("g") ? n << 30 : n << 20;
  }
}
