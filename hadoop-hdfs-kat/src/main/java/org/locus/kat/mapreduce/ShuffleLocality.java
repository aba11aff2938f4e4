package org.locus.kat.mapreduce;

/**
 * Counters of {@link HostAttributingShuffle}: map output a reducer fetched from a map that ran
 * on its own host, and from maps on other hosts (bytes as transferred, i.e. compressed if map
 * output compression is on).
 */
public enum ShuffleLocality {
  SAME_HOST_BYTES,
  CROSS_HOST_BYTES,
  SAME_HOST_FETCHES,
  CROSS_HOST_FETCHES
}
