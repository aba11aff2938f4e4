package org.locus.kat.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Bounded-load rendezvous hashing: bucket owners that keep every node's bytes near the mean
 * even when keys follow a Zipf law (seed 000 §3.4.3's data distribution, plus the skew bound
 * the seed leaves open).
 *
 * <p>Plain rendezvous gives each node about the same number of buckets, not the same bytes: on
 * the bench corpus (Zipf, 4 nodes, 64 buckets) the fullest node held 1.61 times the mean. Here
 * buckets are taken largest first, and each goes to the first host in its own rendezvous order
 * whose load stays within {@link #LOAD_FACTOR} times the mean; if none has room, to the least
 * loaded host. A key still lives in exactly one bucket, so it stays on one node. The result is
 * at most {@code max(LOAD_FACTOR, 1 + largest bucket / mean)} times the mean.
 *
 * <p>Stickiness for redistribution: buckets the caller keeps (a rebalance keeps a bucket whose
 * owner is alive and which no newly joined host wins) are assigned first, so only displaced
 * buckets move.
 */
public final class BoundedLoadAssignment {
  /** A node may take buckets along their rendezvous order up to this multiple of the mean. */
  public static final double LOAD_FACTOR = 1.10;

  private BoundedLoadAssignment() {
  }

  /**
   * @param ownership bucket count, hosts and rendezvous orders
   * @param bucketBytes bytes of each bucket
   * @param keep for each bucket a host to keep it on, or null to choose one
   * @return the owner of each bucket
   */
  public static List<String> assign(KeyOwnership ownership, long[] bucketBytes,
      String[] keep) {
    int buckets = ownership.buckets();
    List<String> hosts = ownership.hosts();
    long total = Arrays.stream(bucketBytes).sum();
    double cap = LOAD_FACTOR * total / hosts.size();
    Map<String, Long> load = new TreeMap<>();
    for (String host : hosts) {
      load.put(host, 0L);
    }
    String[] owners = new String[buckets];
    List<Integer> open = new ArrayList<>();
    for (int bucket = 0; bucket < buckets; bucket++) {
      if (keep != null && keep[bucket] != null && load.containsKey(keep[bucket])) {
        owners[bucket] = keep[bucket];
        load.merge(keep[bucket], bucketBytes[bucket], Long::sum);
      } else {
        open.add(bucket);
      }
    }
    open.sort(Comparator.<Integer>comparingLong(b -> bucketBytes[b]).reversed()
        .thenComparing(b -> b));
    for (int bucket : open) {
      String chosen = null;
      for (String host : ownership.preferenceOrder(bucket)) {
        if (load.get(host) + bucketBytes[bucket] <= cap) {
          chosen = host;
          break;
        }
      }
      if (chosen == null) {
        chosen = leastLoaded(load);
      }
      owners[bucket] = chosen;
      load.merge(chosen, bucketBytes[bucket], Long::sum);
    }
    return Arrays.asList(owners);
  }

  private static String leastLoaded(Map<String, Long> load) {
    String best = null;
    for (Map.Entry<String, Long> e : load.entrySet()) {
      if (best == null || e.getValue() < load.get(best)) {
        best = e.getKey();
      }
    }
    return best;
  }
}
