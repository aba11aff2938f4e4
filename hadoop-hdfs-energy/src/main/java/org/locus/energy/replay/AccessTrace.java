package org.locus.energy.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The access times of one backup disk over a period, in milliseconds from its start, sorted.
 * Backups are touched when a job writes output (its backup replicas) and on recovery, so a
 * trace is the output-writing moments of a job stream. The synthetic generators are seeded and
 * reproducible.
 *
 * @param name what the trace models
 * @param accessMillis sorted access times
 * @param durationMillis length of the period
 */
public record AccessTrace(String name, long[] accessMillis, long durationMillis) {

  public AccessTrace {
    if (durationMillis <= 0) {
      throw new IllegalArgumentException("a trace needs a positive duration, got "
          + durationMillis);
    }
    for (int i = 0; i < accessMillis.length; i++) {
      if (accessMillis[i] < 0 || accessMillis[i] >= durationMillis
          || (i > 0 && accessMillis[i] < accessMillis[i - 1])) {
        throw new IllegalArgumentException("trace '" + name + "': access " + i + " at "
            + accessMillis[i] + " ms is unsorted or outside 0.." + durationMillis + " ms");
      }
    }
    accessMillis = accessMillis.clone();
  }

  @Override
  public long[] accessMillis() {
    return accessMillis.clone();
  }

  public int accesses() {
    return accessMillis.length;
  }

  /** @return the idle gaps between consecutive accesses, in order */
  public long[] gaps() {
    long[] gaps = new long[Math.max(0, accessMillis.length - 1)];
    for (int i = 1; i < accessMillis.length; i++) {
      gaps[i - 1] = accessMillis[i] - accessMillis[i - 1];
    }
    return gaps;
  }

  /**
   * Interactive use: a job finishes every {@code min..max} seconds (uniform), each writing its
   * output in one access.
   */
  public static AccessTrace steady(long durationMillis, long minGapMillis, long maxGapMillis,
      long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Long> times = new ArrayList<>();
    for (long t = minGapMillis; t < durationMillis;
        t += minGapMillis + random.nextLong(maxGapMillis - minGapMillis + 1)) {
      times.add(t);
    }
    return new AccessTrace(String.format("steady, %d–%d s gaps", minGapMillis / 1000,
        maxGapMillis / 1000), toArray(times), durationMillis);
  }

  /**
   * Batch windows: every {@code periodMillis} a window of {@code windowMillis} in which output
   * is written every {@code everyMillis}; idle in between.
   */
  public static AccessTrace batchWindows(long durationMillis, long periodMillis,
      long windowMillis, long everyMillis) {
    List<Long> times = new ArrayList<>();
    for (long start = periodMillis / 2; start < durationMillis; start += periodMillis) {
      for (long t = start; t < Math.min(start + windowMillis, durationMillis); t += everyMillis) {
        times.add(t);
      }
    }
    return new AccessTrace(String.format("batch, %d of every %d min",
        windowMillis / 60_000, periodMillis / 60_000), toArray(times), durationMillis);
  }

  /**
   * Heavy-tailed job arrivals, as in the Facebook traces SWIM replays: Pareto inter-arrival
   * times with shape {@code alpha} and scale {@code minGapMillis} — mostly short gaps, a few
   * very long ones.
   */
  public static AccessTrace heavyTailed(long durationMillis, long minGapMillis, double alpha,
      long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Long> times = new ArrayList<>();
    for (long t = minGapMillis; t < durationMillis;) {
      times.add(t);
      double u = 1 - random.nextDouble();
      t += (long) (minGapMillis / Math.pow(u, 1 / alpha));
    }
    return new AccessTrace(String.format("Pareto gaps α=%.1f, ≥%d s", alpha,
        minGapMillis / 1000), toArray(times), durationMillis);
  }

  private static long[] toArray(List<Long> times) {
    return times.stream().mapToLong(Long::longValue).toArray();
  }

  @Override
  public String toString() {
    return name + " (" + accessMillis.length + " accesses in " + durationMillis / 1000 + " s, "
        + "first " + Arrays.toString(Arrays.copyOf(accessMillis,
            Math.min(3, accessMillis.length))) + ")";
  }
}
