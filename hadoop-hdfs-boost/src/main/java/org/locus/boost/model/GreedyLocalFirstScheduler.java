package org.locus.boost.model;

import java.util.Random;

/**
 * A Hadoop-like assignment of map tasks to free slots, as the MapReduce AM's
 * {@code RMContainerAllocator} does it with one rack (node-local, else any).
 *
 * <p>Rules, one task per block:
 * <ol>
 *   <li>Every task takes one unit of time, so time advances in rounds; at the start of a round
 *       every slot of every server is free.</li>
 *   <li>In a round the servers offer their free slots in a random order (a fresh permutation each
 *       round: NodeManager heartbeats arrive in no fixed order); a server fills all its
 *       {@code slots} free slots at its turn, one task per slot.</li>
 *   <li>A free slot takes, in this order: a pending block whose REPLICATED copy (copy 0) is on
 *       this server, only when the superlocal level is on; else a pending block with a copy on
 *       this server; else any pending block, which then runs remote. Within a level the lowest
 *       pending block id goes first (the AM keeps its per-host and "any" lists in FIFO order).</li>
 *   <li>A slot idles only when no block is pending; the run ends when every block has run.</li>
 * </ol>
 * No delay scheduling: a slot never waits for a local block to free up elsewhere.
 */
public final class GreedyLocalFirstScheduler {
  private GreedyLocalFirstScheduler() {
  }

  /**
   * @param layout where the copies live
   * @param slots map slots per server, &ge; 1
   * @param superlocalLevel whether copy 0 is a REPLICATED copy preferred over other local ones
   * @param random source of the heartbeat order
   * @return how many tasks ran at each level
   */
  public static TaskShares assign(ReplicaLayout layout, int slots, boolean superlocalLevel,
      Random random) {
    if (slots < 1) {
      throw new IllegalArgumentException("slots per server must be >= 1, got " + slots);
    }
    int servers = layout.servers();
    boolean[] done = new boolean[layout.blocks()];
    int[] localCursor = new int[servers];
    int[] superCursor = new int[servers];
    int anyCursor = 0;
    int pending = layout.blocks();
    long superlocal = 0;
    long local = 0;
    long remote = 0;
    int[] order = new int[servers];
    for (int s = 0; s < servers; s++) {
      order[s] = s;
    }
    while (pending > 0) {
      shuffle(order, random);
      for (int i = 0; i < servers && pending > 0; i++) {
        int s = order[i];
        for (int slot = 0; slot < slots && pending > 0; slot++) {
          int block = -1;
          if (superlocalLevel) {
            int held = layout.heldCount(s);
            while (superCursor[s] < held) {
              int candidate = layout.heldBlock(s, superCursor[s]);
              if (!done[candidate] && layout.holder(candidate, 0) == s) {
                block = candidate;
                break;
              }
              superCursor[s]++;
            }
            if (block >= 0) {
              superlocal++;
            }
          }
          if (block < 0) {
            int held = layout.heldCount(s);
            while (localCursor[s] < held && done[layout.heldBlock(s, localCursor[s])]) {
              localCursor[s]++;
            }
            if (localCursor[s] < held) {
              block = layout.heldBlock(s, localCursor[s]);
              local++;
            }
          }
          if (block < 0) {
            while (done[anyCursor]) {
              anyCursor++;
            }
            block = anyCursor;
            remote++;
          }
          done[block] = true;
          pending--;
        }
      }
    }
    return new TaskShares(superlocal, local, remote);
  }

  private static void shuffle(int[] values, Random random) {
    for (int i = values.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = values[i];
      values[i] = values[j];
      values[j] = t;
    }
  }
}
