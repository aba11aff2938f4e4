package org.locus.boost.model;

import java.util.Random;

/**
 * Where the copies of kn blocks live on n servers: each block's r copies go on r distinct servers
 * chosen uniformly at random (HDFS's default placement for a writer outside the cluster on one
 * rack). Copy 0 of a block is the one BoostDFS would keep on the REPLICATED volume.
 *
 * <p>Layout in memory: {@code holders[b * r + c]} is the server of copy c of block b; per server,
 * the blocks it holds in increasing block order are {@code held[heldStart[s] .. heldStart[s+1])}
 * (compressed rows), so a scheduler can walk a server's local blocks in Hadoop's FIFO order.
 */
public final class ReplicaLayout {
  private final int servers;
  private final int blocks;
  private final int copies;
  private final int[] holders;
  private final int[] heldStart;
  private final int[] held;

  private ReplicaLayout(int servers, int blocks, int copies, int[] holders) {
    this.servers = servers;
    this.blocks = blocks;
    this.copies = copies;
    this.holders = holders;
    this.heldStart = new int[servers + 1];
    for (int h : holders) {
      heldStart[h + 1]++;
    }
    for (int s = 0; s < servers; s++) {
      heldStart[s + 1] += heldStart[s];
    }
    this.held = new int[holders.length];
    int[] fill = heldStart.clone();
    for (int b = 0; b < blocks; b++) {
      for (int c = 0; c < copies; c++) {
        held[fill[holders[b * copies + c]]++] = b;
      }
    }
  }

  /**
   * @param servers n &ge; 1
   * @param blocks number of blocks (map tasks), &ge; 1
   * @param copies r, 1 &le; r &le; n
   * @param random the source of placement choices
   */
  public static ReplicaLayout random(int servers, int blocks, int copies, Random random) {
    if (servers < 1 || blocks < 1) {
      throw new IllegalArgumentException("need at least one server and one block, got "
          + servers + " servers and " + blocks + " blocks");
    }
    if (copies < 1 || copies > servers) {
      throw new IllegalArgumentException("copies per block must be 1.." + servers
          + " (one per server at most), got " + copies);
    }
    int[] holders = new int[blocks * copies];
    for (int b = 0; b < blocks; b++) {
      for (int c = 0; c < copies; c++) {
        int server;
        boolean taken;
        do {
          server = random.nextInt(servers);
          taken = false;
          for (int e = 0; e < c; e++) {
            taken |= holders[b * copies + e] == server;
          }
        } while (taken);
        holders[b * copies + c] = server;
      }
    }
    return new ReplicaLayout(servers, blocks, copies, holders);
  }

  /**
   * As {@link #random}, except copy 0 (the REPLICATED one): it goes to the server holding the
   * fewest copies 0 so far of {@code choices} distinct servers drawn at random, as the NameNode
   * places it ({@code locus.boost.placement.replicated-choices}); the other copies are drawn
   * uniformly among the remaining servers.
   *
   * @param choices servers compared for copy 0, 1 &le; choices (more than n compares all n)
   */
  public static ReplicaLayout spread(int servers, int blocks, int copies, int choices,
      Random random) {
    if (choices < 1) {
      throw new IllegalArgumentException("servers compared for the REPLICATED copy must be >= 1,"
          + " got " + choices);
    }
    ReplicaLayout drawn = random(servers, blocks, copies, random);
    int[] holders = drawn.holders.clone();
    int[] replicated = new int[servers];
    int[] candidates = new int[servers];
    for (int s = 0; s < servers; s++) {
      candidates[s] = s;
    }
    int compared = Math.min(choices, servers);
    for (int b = 0; b < blocks; b++) {
      int best = -1;
      for (int i = 0; i < compared; i++) {
        int j = i + random.nextInt(servers - i);
        int swap = candidates[i];
        candidates[i] = candidates[j];
        candidates[j] = swap;
        if (best < 0 || replicated[candidates[i]] < replicated[best]) {
          best = candidates[i];
        }
      }
      replicated[best]++;
      int old = holders[b * copies];
      holders[b * copies] = best;
      for (int c = 1; c < copies; c++) {
        if (holders[b * copies + c] == best) {
          holders[b * copies + c] = old;
        }
      }
    }
    return new ReplicaLayout(servers, blocks, copies, holders);
  }

  public int servers() {
    return servers;
  }

  public int blocks() {
    return blocks;
  }

  public int copies() {
    return copies;
  }

  /** @return the server of copy {@code copy} of block {@code block} */
  public int holder(int block, int copy) {
    return holders[block * copies + copy];
  }

  /** @return how many copies server {@code server} holds */
  public int heldCount(int server) {
    return heldStart[server + 1] - heldStart[server];
  }

  /** @return the i-th block (in block order) that server {@code server} holds */
  public int heldBlock(int server, int i) {
    return held[heldStart[server] + i];
  }

  /** @return whether server {@code server} holds a copy of block {@code block} */
  public boolean holds(int server, int block) {
    for (int c = 0; c < copies; c++) {
      if (holders[block * copies + c] == server) {
        return true;
      }
    }
    return false;
  }
}
