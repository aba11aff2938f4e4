package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client of the concurrent whole-node tests: random puts (55 %), removes (20 %), lookups
 * (22 %) and subtree scans (3 %) at random nodes, on the keys it owns (every
 * {@code clients}-th of the key space), so that every answer can be checked against the
 * client's own map whichever incarnation of a node gives it.
 *
 * @param nodes    how many index nodes the client picks from
 * @param clients  how many clients share the key space
 * @param keySpace how many keys there are in all
 */
public record RandomIndexClient(int nodes, int clients, int keySpace) {

  /** Key {@code i}: eight top directories of four subdirectories each. */
  public static PathKey key(int i) {
    return PathKey.of("/d" + (i % 8) + "/s" + (i / 8 % 4) + "/f" + i);
  }

  /** An owner as the index answers it. */
  public static OptionalInt opt(Integer value) {
    return value == null ? OptionalInt.empty() : OptionalInt.of(value);
  }

  /**
   * Runs client {@code client} for at least {@code ops} operations and for as long as
   * {@code busy} holds, asserting every answer.
   *
   * @return the owners the client left in the index, by key
   */
  public Map<PathKey, Integer> run(IndexNodesAt cluster, long seed, int client, int ops,
      AtomicBoolean busy) {
    Random random = new Random(seed * 1_000_003L + client);
    Map<PathKey, Integer> mine = new HashMap<>();
    for (int op = 0; op < ops || busy.get(); op++) {
      PathKey key = key(random.nextInt(keySpace / clients) * clients + client);
      int at = random.nextInt(nodes);
      int dice = random.nextInt(100);
      if (dice < 55) {
        int owner = random.nextInt(nodes);
        OptionalInt previous = cluster.at(at, n -> n.put(key, owner));
        assertEquals(opt(mine.put(key, owner)), previous, "previous owner of " + key);
      } else if (dice < 75) {
        boolean removed = cluster.at(at, n -> n.remove(key));
        assertEquals(mine.remove(key) != null, removed, "removing " + key);
      } else if (dice < 97) {
        assertEquals(opt(mine.get(key)), cluster.at(at, n -> n.lookup(key)),
            "node " + at + " looking up " + key);
      } else {
        PathKey d = PathKey.of("/d" + random.nextInt(8));
        List<IndexEntry> scanned = cluster.at(at, n -> n.scanSubtree(d));
        for (int i = 0; i < scanned.size(); i++) {
          assertTrue(d.subtreeEnd().compareTo(scanned.get(i).key()) > 0
              && scanned.get(i).key().compareTo(d) >= 0, "scan of " + d + " at " + at);
          assertTrue(i == 0 || scanned.get(i - 1).key().compareTo(scanned.get(i).key()) < 0,
              "scan of " + d + " in order");
        }
      }
    }
    return mine;
  }
}
