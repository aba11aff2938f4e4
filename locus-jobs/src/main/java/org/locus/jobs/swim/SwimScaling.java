package org.locus.jobs.swim;

/**
 * Turns a trace job's bytes into this cluster's targets: every count divided by
 * {@code divisor} (the usual rule: original nodes / nodes here), then every non-zero count
 * clipped to [{@code minBytes}, {@code maxBytes}]; input is always at least {@code minBytes}
 * (a job reads something). Zero shuffle stays zero (a map-only job); zero output stays zero.
 *
 * @param divisor scale-down factor, at least 1
 * @param minBytes smallest non-zero target
 * @param maxBytes largest target
 */
public record SwimScaling(double divisor, long minBytes, long maxBytes) {
  /** Facebook 2009 cluster size (600 nodes, {@code data/swim/README.md}). */
  public static final int FB2009_NODES = 600;
  /** Facebook 2010 cluster size (3000 nodes). */
  public static final int FB2010_NODES = 3000;

  public SwimScaling {
    if (!(divisor >= 1) || minBytes < 1 || maxBytes < minBytes) {
      throw new IllegalArgumentException("scaling needs divisor >= 1 and 1 <= min <= max, got"
          + " divisor " + divisor + ", min " + minBytes + ", max " + maxBytes);
    }
  }

  /** @return the targets of one trace job */
  public ByteTargets scale(SwimTraceJob job) {
    long input = Math.round(job.inputBytes() / divisor);
    long shuffle = Math.round(job.shuffleBytes() / divisor);
    long output = Math.round(job.outputBytes() / divisor);
    long clippedInput = clip(Math.max(input, 1));
    long clippedShuffle = job.shuffleBytes() == 0 ? 0 : clip(shuffle);
    long clippedOutput = job.outputBytes() == 0 ? 0 : clip(output);
    boolean clipped = clippedInput != input
        || (job.shuffleBytes() != 0 && clippedShuffle != shuffle)
        || (job.outputBytes() != 0 && clippedOutput != output);
    return new ByteTargets(clippedInput, clippedShuffle, clippedOutput, clipped);
  }

  private long clip(long bytes) {
    return Math.max(minBytes, Math.min(maxBytes, bytes));
  }
}
