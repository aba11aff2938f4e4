package org.locus.jobs.data;

import java.util.SplittableRandom;

/**
 * {@code edges}: a directed graph as {@code src \t dst} lines. About one node per eight edges;
 * sources uniform, destinations skewed towards low ids (a few nodes with many in-links, as in
 * web graphs).
 */
final class EdgeListGenerator extends LineGenerator {
  @Override
  public String kind() {
    return "edges";
  }

  @Override
  public String summary() {
    return "src<TAB>dst lines of a skewed directed graph (adjacency-list)";
  }

  @Override
  protected void line(SplittableRandom random, int file, int files, long index,
      long totalBytes, StringBuilder out) {
    long nodes = Math.max(16, totalBytes / 12 / 8);
    double skew = random.nextDouble();
    out.append(random.nextLong(nodes)).append('\t').append((long) (nodes * skew * skew));
  }
}
