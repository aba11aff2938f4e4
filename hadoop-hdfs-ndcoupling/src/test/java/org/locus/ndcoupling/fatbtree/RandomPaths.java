package org.locus.ndcoupling.fatbtree;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeds and random short paths for the random-sequence tests of the Fat-Btree. */
final class RandomPaths {
  private RandomPaths() {
  }

  /** {@code count} consecutive seeds from {@code first}. */
  static List<Long> seeds(long first, int count) {
    List<Long> seeds = new ArrayList<>();
    for (long s = first; s < first + count; s++) {
      seeds.add(s);
    }
    return seeds;
  }

  /**
   * A path of one to three components, each one of the first {@code letters} letters, half of
   * them with a digit after it: few enough names that paths repeat, are prefixes of each other
   * and share directories.
   */
  static PathKey next(Random random, int letters) {
    StringBuilder path = new StringBuilder();
    int depth = 1 + random.nextInt(3);
    for (int i = 0; i < depth; i++) {
      path.append('/').append((char) ('a' + random.nextInt(letters)));
      if (random.nextBoolean()) {
        path.append(random.nextInt(5));
      }
    }
    return PathKey.of(path.toString());
  }
}
