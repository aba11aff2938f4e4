package org.locus.bench.zone;

/**
 * The three job groups of seed 002's SWIM job set (§3.1, §5.1), as fractions of the local-dir
 * disk: how much a job reads, shuffles (its intermediate data: map output and the reducers'
 * merges, on the NodeManager's local dirs) and writes to HDFS (permanent data). The shuffle
 * fractions are those of {@code zonectl/bench/run}: 3 % (map-heavy), 10 % (shuffle-heavy), 1 %
 * (reduce-heavy) of the disk per job; reduce-heavy jobs' outputs add up to a set share of the
 * disk over the whole set, the others write almost nothing.
 */
public enum ZoneJobKind {
  MAP_HEAVY("map-heavy", 0.10, 0.03),
  SHUFFLE_HEAVY("shuffle-heavy", 0.03, 0.10),
  REDUCE_HEAVY("reduce-heavy", 0.02, 0.01);

  private final String word;
  private final double inputShare;
  private final double shuffleShare;

  ZoneJobKind(String word, double inputShare, double shuffleShare) {
    this.word = word;
    this.inputShare = inputShare;
    this.shuffleShare = shuffleShare;
  }

  /** @return the name prefix of this group's jobs, which the hook's name map classifies */
  public String word() {
    return word;
  }

  /** @return bytes a job of this group reads, as a share of the disk */
  public double inputShare() {
    return inputShare;
  }

  /** @return bytes a job of this group shuffles, as a share of the disk */
  public double shuffleShare() {
    return shuffleShare;
  }
}
