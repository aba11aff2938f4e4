package org.locus.jobs.data;

import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * {@code itemsets}: 3-itemsets {@code a,b,c} (ascending whole numbers) for self-join. The item
 * universe grows with the size so that about eight itemsets share each 2-element prefix,
 * which keeps the join's output a few times its input.
 */
final class ItemsetGenerator extends LineGenerator {
  @Override
  public String kind() {
    return "itemsets";
  }

  @Override
  public String summary() {
    return "a,b,c lines of ascending item ids (self-join)";
  }

  @Override
  protected void line(SplittableRandom random, int file, int files, long index,
      long totalBytes, StringBuilder out) {
    long lines = Math.max(1, totalBytes / 16);
    int universe = (int) Math.max(8, Math.sqrt(lines / 4.0));
    TreeSet<Integer> items = new TreeSet<>();
    while (items.size() < 3) {
      items.add(1 + random.nextInt(universe));
    }
    out.append(items.first()).append(',').append(items.higher(items.first())).append(',')
        .append(items.last());
  }
}
