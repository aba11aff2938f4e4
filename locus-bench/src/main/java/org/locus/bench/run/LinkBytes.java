package org.locus.bench.run;

/**
 * Bytes one node's network link carried: counters, or the difference of two readings.
 *
 * @param sent bytes the node sent
 * @param received bytes the node received
 */
public record LinkBytes(long sent, long received) {
  /** @return this reading minus an earlier one */
  public LinkBytes minus(LinkBytes earlier) {
    return new LinkBytes(sent - earlier.sent, received - earlier.received);
  }
}
