package org.locus.kat.placement;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The data distribution module's hash (seed 000 §3.4.3): which node owns an intermediate key.
 *
 * <p>Two steps. A key falls into one of {@code buckets} buckets by a 64-bit FNV-1a hash of its
 * UTF-8 bytes. A bucket belongs to the node with the highest rendezvous score
 * {@code mix(bucket, host)} among the live hosts. Rendezvous (highest-random-weight) hashing
 * means that when a node joins, only the buckets it now wins move (about 1/N of them), and when
 * a node leaves only its own buckets move; everything else stays put. Buckets make files the
 * unit of movement, so a membership change rewrites whole files and nothing else.
 *
 * <p>A dataset imported with load bounding ({@link BoundedLoadAssignment}) stores its bucket
 * owners explicitly; they were chosen along each bucket's rendezvous order, and this class then
 * answers from that table instead of the top of the order.
 *
 * <p>Immutable; equal inputs give equal owners on every JVM (no {@code String.hashCode}, no
 * randomness).
 */
public final class KeyOwnership {
  private final int buckets;
  private final List<String> hosts;
  /** Owner of each bucket when stored explicitly, else empty (top of the rendezvous order). */
  private final List<String> ownerOfBucket;

  /**
   * @param buckets number of key buckets, at least 1
   * @param hosts the candidate owners; order does not matter for ownership
   */
  public KeyOwnership(int buckets, List<String> hosts) {
    this(buckets, hosts, List.of());
  }

  /**
   * @param buckets number of key buckets, at least 1
   * @param hosts the candidate owners
   * @param ownerOfBucket the owner of each bucket (each one of {@code hosts}), or empty for
   *     plain rendezvous ownership
   */
  public KeyOwnership(int buckets, List<String> hosts, List<String> ownerOfBucket) {
    if (buckets < 1) {
      throw new IllegalArgumentException("bucket count must be at least 1, got " + buckets);
    }
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("no hosts to own keys");
    }
    if (!ownerOfBucket.isEmpty() && (ownerOfBucket.size() != buckets
        || !hosts.containsAll(ownerOfBucket))) {
      throw new IllegalArgumentException("bucket owners must name one of " + hosts + " for each"
          + " of " + buckets + " buckets, got " + ownerOfBucket);
    }
    this.buckets = buckets;
    this.hosts = List.copyOf(hosts);
    this.ownerOfBucket = List.copyOf(ownerOfBucket);
  }

  public int buckets() {
    return buckets;
  }

  public List<String> hosts() {
    return hosts;
  }

  /** @return the bucket of a key, 0..buckets-1 */
  public int bucketOf(String key) {
    byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
    return bucketOf(utf8, 0, utf8.length);
  }

  /**
   * @return the bucket of a key given as UTF-8 bytes (e.g. a {@code Text}'s buffer, without
   *     decoding it), equal to {@link #bucketOf(String)} of the decoded key
   */
  public int bucketOf(byte[] utf8, int offset, int length) {
    long hash = 0xcbf29ce484222325L;
    for (int i = offset; i < offset + length; i++) {
      hash ^= utf8[i] & 0xff;
      hash *= 0x100000001b3L;
    }
    return (int) Long.remainderUnsigned(mix(hash), buckets);
  }

  /** @return the explicit owner of every bucket, or empty when ownership is plain rendezvous */
  public List<String> explicitOwners() {
    return ownerOfBucket;
  }

  /** @return the host owning a bucket */
  public String ownerOfBucket(int bucket) {
    if (!ownerOfBucket.isEmpty()) {
      return ownerOfBucket.get(bucket);
    }
    return rendezvousTop(bucket);
  }

  /** @return the hosts in the bucket's rendezvous order, best first (ties: smaller name) */
  public List<String> preferenceOrder(int bucket) {
    List<String> order = new ArrayList<>(hosts);
    order.sort((a, b) -> {
      int byScore = Long.compareUnsigned(score(bucket, b), score(bucket, a));
      return byScore != 0 ? byScore : a.compareTo(b);
    });
    return order;
  }

  /** @return the host of highest rendezvous score for a bucket */
  private String rendezvousTop(int bucket) {
    String best = null;
    long bestScore = 0;
    for (String host : hosts) {
      long score = score(bucket, host);
      if (best == null || Long.compareUnsigned(score, bestScore) > 0
          || (score == bestScore && host.compareTo(best) < 0)) {
        best = host;
        bestScore = score;
      }
    }
    return best;
  }

  /** @return the host owning a key */
  public String ownerOf(String key) {
    return ownerOfBucket(bucketOf(key));
  }

  private static long score(int bucket, String host) {
    long h = 0x9e3779b97f4a7c15L ^ bucket;
    for (byte b : host.getBytes(StandardCharsets.UTF_8)) {
      h = mix(h ^ (b & 0xff));
    }
    return mix(h + bucket);
  }

  /** SplitMix64's finaliser: spreads every input bit over the whole word. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
