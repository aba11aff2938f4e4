package org.locus.jobs.swim;

/**
 * What one synthetic job must move on this cluster.
 *
 * @param inputBytes bytes the map tasks read
 * @param shuffleBytes map output bytes (serialised key and value bytes, Hadoop's
 *     {@code MAP_OUTPUT_BYTES}); 0 makes a map-only job
 * @param outputBytes bytes written to the output directory
 * @param clipped whether a scaled count was raised to the minimum or cut to the maximum
 */
public record ByteTargets(long inputBytes, long shuffleBytes, long outputBytes,
    boolean clipped) {
  public ByteTargets {
    if (inputBytes < 1 || shuffleBytes < 0 || outputBytes < 0) {
      throw new IllegalArgumentException("a synthetic job reads at least 1 byte and moves no"
          + " negative bytes, got input " + inputBytes + ", shuffle " + shuffleBytes
          + ", output " + outputBytes);
    }
  }
}
