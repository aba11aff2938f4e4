package org.locus.boost.model;

import java.util.Locale;

/** How the Monte Carlo simulation decides which task runs where; see the named classes. */
public enum AssignmentRule {
  /** Hadoop-like: a free slot takes a pending local block first, else any pending block. */
  GREEDY,
  /** Appendix A's perfect balance, a random copy of each block serves it. */
  DESIGNATED,
  /** Appendix A's perfect balance, the best possible assignment (maximum matching). */
  MATCHING,
  /** Appendix A's Eq. A.1 evaluated on the sampled placement. */
  SHORTFALL;

  /** @return the rule named {@code name} (case-insensitive) */
  public static AssignmentRule named(String name) {
    for (AssignmentRule rule : values()) {
      if (rule.name().equalsIgnoreCase(name.trim())) {
        return rule;
      }
    }
    throw new IllegalArgumentException("unknown assignment rule '" + name
        + "'; one of: greedy, designated, matching, shortfall");
  }

  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }
}
