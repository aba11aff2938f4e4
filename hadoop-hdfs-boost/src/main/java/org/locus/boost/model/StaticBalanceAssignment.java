package org.locus.boost.model;

import java.util.Arrays;
import java.util.Random;

/**
 * Remote task counts under Appendix A's assumptions: unit-time tasks and a static, perfect load
 * balance, every one of n servers runs exactly k = blocks/n tasks. Three readings of the
 * appendix, evaluated on a sampled {@link ReplicaLayout} (blocks must be a multiple of n):
 * <ul>
 *   <li>{@link #appendixShortfall}: Eq. A.1 itself, Σ max(0, rk − c_s) / r over servers s holding
 *       c_s copies (half of Σ|rk − c_s| / r, since Σ(rk − c_s) = 0). This checks the algebra from
 *       Eq. A.1 to Eq. 4.2, not any scheduler.</li>
 *   <li>{@link #designatedCopy}: the appendix's symmetry step made literal: each block is served
 *       by one of its r copies picked uniformly at random, ignoring which servers are short.</li>
 *   <li>{@link #bestMatching}: the best any scheduler can do with that balance: the most tasks
 *       that can run local when each server runs exactly k (a maximum b-matching of blocks to
 *       holders with capacity k). For r = 1 it equals the shortfall, the appendix's "lower
 *       bound on the remote service".</li>
 * </ul>
 */
public final class StaticBalanceAssignment {
  private StaticBalanceAssignment() {
  }

  /** @return Eq. A.1's total shortfall (may be fractional) */
  public static double appendixShortfall(ReplicaLayout layout) {
    int k = tasksPerServer(layout);
    int r = layout.copies();
    double total = 0;
    for (int s = 0; s < layout.servers(); s++) {
      total += Math.max(0, (long) r * k - layout.heldCount(s));
    }
    return total / r;
  }

  /** @return remote tasks when a uniformly random copy of each block is the one served */
  public static long designatedCopy(ReplicaLayout layout, Random random) {
    int k = tasksPerServer(layout);
    int[] designated = new int[layout.servers()];
    for (int b = 0; b < layout.blocks(); b++) {
      designated[layout.holder(b, random.nextInt(layout.copies()))]++;
    }
    long remote = 0;
    for (int d : designated) {
      remote += Math.max(0, k - d);
    }
    return remote;
  }

  /**
   * @return the fewest remote tasks possible when every server runs exactly k tasks: blocks
   *     minus a maximum b-matching, found by a first fit then breadth-first augmenting paths
   */
  public static long bestMatching(ReplicaLayout layout) {
    int k = tasksPerServer(layout);
    int servers = layout.servers();
    int blocks = layout.blocks();
    int r = layout.copies();
    int[] assigned = new int[blocks];
    int[] load = new int[servers];
    Arrays.fill(assigned, -1);
    for (int b = 0; b < blocks; b++) {
      int best = -1;
      for (int c = 0; c < r; c++) {
        int s = layout.holder(b, c);
        if (load[s] < k && (best < 0 || load[s] < load[best])) {
          best = s;
        }
      }
      if (best >= 0) {
        assigned[b] = best;
        load[best]++;
      }
    }
    // A failed search leaves a closed set of full servers: no block assigned inside it has a copy
    // outside it, and later augmentations never enter it, so those servers are skipped for good.
    boolean[] closed = new boolean[servers];
    int[] seen = new int[servers];
    int[] reachedBy = new int[servers];
    int[] queue = new int[servers];
    int stamp = 0;
    long unmatched = 0;
    for (int root = 0; root < blocks; root++) {
      if (assigned[root] >= 0) {
        continue;
      }
      stamp++;
      int head = 0;
      int tail = 0;
      for (int c = 0; c < r; c++) {
        int s = layout.holder(root, c);
        if (!closed[s] && seen[s] != stamp) {
          seen[s] = stamp;
          reachedBy[s] = root;
          queue[tail++] = s;
        }
      }
      int free = -1;
      while (head < tail && free < 0) {
        int s = queue[head++];
        if (load[s] < k) {
          free = s;
          break;
        }
        for (int i = 0; i < layout.heldCount(s); i++) {
          int b = layout.heldBlock(s, i);
          if (assigned[b] != s) {
            continue;
          }
          for (int c = 0; c < r; c++) {
            int t = layout.holder(b, c);
            if (!closed[t] && seen[t] != stamp) {
              seen[t] = stamp;
              reachedBy[t] = b;
              queue[tail++] = t;
            }
          }
        }
      }
      if (free < 0) {
        for (int i = 0; i < tail; i++) {
          closed[queue[i]] = true;
        }
        unmatched++;
        continue;
      }
      load[free]++;
      int s = free;
      while (true) {
        int b = reachedBy[s];
        int previous = assigned[b];
        assigned[b] = s;
        if (previous < 0) {
          break;
        }
        s = previous;
      }
    }
    return unmatched;
  }

  private static int tasksPerServer(ReplicaLayout layout) {
    if (layout.blocks() % layout.servers() != 0) {
      throw new IllegalArgumentException("a perfect balance needs blocks (" + layout.blocks()
          + ") to be a multiple of servers (" + layout.servers() + ")");
    }
    return layout.blocks() / layout.servers();
  }
}
