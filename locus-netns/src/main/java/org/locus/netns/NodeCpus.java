package org.locus.netns;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A node's CPU limit as a user types it: a number of cores, possibly fractional ({@code 0.5}
 * for half a core, {@code 2}), or {@code none} for the host's cores, shared. Kept in
 * {@link NetnsClusterSpec#nodeCpus()}; {@link NodeCgroup#limitCpu} turns it into a cgroup
 * quota.
 */
public final class NodeCpus {
  private static final Pattern CORES = Pattern.compile("\\d+(\\.\\d+)?|\\.\\d+");
  /** Below this the kernel's minimum quota (1 ms per 100 ms period) would raise the limit. */
  static final double MIN_CORES = 0.01;

  private NodeCpus() {
  }

  /**
   * @return cores, 0 for {@code none}
   * @throws IllegalArgumentException naming the option and the accepted forms
   */
  public static double parse(String option, String text) {
    String word = text.trim().toLowerCase(Locale.ROOT);
    if (word.equals("none")) {
      return 0;
    }
    if (!CORES.matcher(word).matches() || Double.parseDouble(word) < MIN_CORES) {
      throw new IllegalArgumentException("unknown CPU limit '" + text + "' for --" + option
          + "; expected none or a number of cores of at least " + MIN_CORES
          + ", e.g. 0.5 or 2");
    }
    return Double.parseDouble(word);
  }

  /** @return {@code cores} as {@link #parse} reads it back, e.g. {@code 0.5}; none for 0 */
  public static String format(double cores) {
    if (cores <= 0) {
      return "none";
    }
    return BigDecimal.valueOf(cores).stripTrailingZeros().toPlainString();
  }
}
