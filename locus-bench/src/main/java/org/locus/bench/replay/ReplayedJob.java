package org.locus.bench.replay;

import org.locus.jobs.swim.ByteTargets;

/**
 * One synthetic job of a trace replay, as it ran.
 *
 * @param name the trace's job name
 * @param traceSeconds submission time in the trace
 * @param plannedMillis when the replay was to submit it, from the replay's start (trace time
 *     divided by the compression)
 * @param submittedMillis when it was submitted, from the replay's start
 * @param finishedMillis when it finished, from the replay's start
 * @param succeeded whether the MapReduce job succeeded
 * @param targets the bytes it was to move (scaled and clipped)
 * @param inputBytes bytes its maps read ({@code FileInputFormatCounter.BYTES_READ})
 * @param shuffleBytes its map output bytes ({@code TaskCounter.MAP_OUTPUT_BYTES})
 * @param outputBytes bytes it wrote ({@code FileOutputFormatCounter.BYTES_WRITTEN})
 * @param error why it could not run, or null
 */
public record ReplayedJob(String name, long traceSeconds, long plannedMillis,
    long submittedMillis, long finishedMillis, boolean succeeded, ByteTargets targets,
    long inputBytes, long shuffleBytes, long outputBytes, String error) {
  /** How far a measured count may be from its target (the synthetic job's promise). */
  public static final double TOLERANCE = 0.10;

  /** @return submission to completion */
  public long wallMillis() {
    return finishedMillis - submittedMillis;
  }

  /** @return how late the submission was against the plan */
  public long lateMillis() {
    return submittedMillis - plannedMillis;
  }

  /** @return whether every measured count is within {@link #TOLERANCE} of its target */
  public boolean onTarget() {
    return within(targets.inputBytes(), inputBytes)
        && within(targets.shuffleBytes(), shuffleBytes)
        && within(targets.outputBytes(), outputBytes);
  }

  static boolean within(long target, long measured) {
    return Math.abs(measured - target) <= target * TOLERANCE;
  }
}
