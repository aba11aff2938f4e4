package org.locus.ndcoupling.fatbtree;

import java.util.List;
import java.util.Map;

/**
 * What {@link TreeVerifier} found.
 *
 * @param problems      every violated invariant, one sentence each; empty if the tree is sound
 * @param keys          keys in all leaves
 * @param pagesPerLevel distinct pages per level (0 = leaves)
 * @param copies        page copies on all nodes together
 * @param surplusCopies index page copies on nodes with nothing below them (allowed)
 */
public record VerificationReport(List<String> problems, int keys,
    Map<Integer, Integer> pagesPerLevel, int copies, int surplusCopies) {

  public boolean isSound() {
    return problems.isEmpty();
  }

  @Override
  public String toString() {
    return (problems.isEmpty() ? "sound" : problems.size() + " problems") + ": " + keys
        + " keys, pages per level " + pagesPerLevel + ", " + copies + " copies (" + surplusCopies
        + " surplus)" + (problems.isEmpty() ? "" : "\n  " + String.join("\n  ",
            problems.subList(0, Math.min(20, problems.size()))));
  }
}
