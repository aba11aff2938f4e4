package org.locus.zone.yarn.policy;

import java.util.Locale;

/** The two job classes of seed 002 §4.1, named as zonectl names them. */
public enum ZoneClass {
  /** Writes mostly temporary data (shuffle-, reduce-heavy): allocate in the outer area. */
  TEMP,
  /** Writes mostly permanent output: allocate in the inner area. */
  PERM;

  /** The word zonectl uses on its command line and in its {@code -p} line. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses "temp" or "perm" (any case).
   *
   * @param what names where the word came from, for the error message
   */
  public static ZoneClass parse(String word, String what) {
    String w = word == null ? "" : word.trim().toLowerCase(Locale.ROOT);
    switch (w) {
      case "temp":
        return TEMP;
      case "perm":
        return PERM;
      default:
        throw new IllegalArgumentException(
            what + ": expected temp or perm, got '" + word + "'");
    }
  }
}
