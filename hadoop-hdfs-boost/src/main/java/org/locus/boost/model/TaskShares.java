package org.locus.boost.model;

/**
 * How many map tasks ran at each locality level.
 *
 * @param superlocal tasks that ran on the server holding the block's REPLICATED copy
 * @param local tasks that ran on another server holding a copy
 * @param remote tasks that read their block from another server
 */
public record TaskShares(long superlocal, long local, long remote) {

  public long total() {
    return superlocal + local + remote;
  }

  public double superlocalFraction() {
    return (double) superlocal / total();
  }

  public double localFraction() {
    return (double) local / total();
  }

  /** @return ρ, the remote-map-task fraction */
  public double remoteFraction() {
    return (double) remote / total();
  }

  public TaskShares plus(TaskShares other) {
    return new TaskShares(superlocal + other.superlocal, local + other.local,
        remote + other.remote);
  }
}
