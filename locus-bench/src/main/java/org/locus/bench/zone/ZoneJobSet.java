package org.locus.bench.zone;

import java.util.ArrayList;
import java.util.List;

import org.locus.jobs.swim.ByteTargets;

/**
 * The job sequence of one run: {@code groups} groups cycling map-, shuffle-, reduce-heavy
 * (seed 002 §5.1 runs 27 such groups one after another), one job per group, sized for a disk
 * of {@code diskBytes}. Reduce-heavy jobs share {@link #REDUCE_OUTPUT_SHARE} of the disk as
 * output (or a share the caller gives); the other jobs write {@link #SMALL_OUTPUT_SHARE} each.
 */
public final class ZoneJobSet {
  /** Share of the disk the reduce-heavy jobs' outputs fill over the whole set. */
  public static final double REDUCE_OUTPUT_SHARE = 0.45;
  /**
   * The most the reduce-heavy outputs may fill: with the input pool (0.10) and the outer area
   * a job-aware strategy keeps free for intermediate data (0.25), 0.95 of the disk.
   */
  public static final double MAX_REDUCE_OUTPUT_SHARE = 0.60;
  /** Share of the disk a map- or shuffle-heavy job writes as output. */
  public static final double SMALL_OUTPUT_SHARE = 0.002;
  /** Name of the job that writes the input pool before the first job (not timed). */
  public static final String POOL_JOB_NAME = "input-writer";
  /** Share of the disk the input pool takes (written before the first job). */
  public static final double POOL_SHARE = 0.10;

  /** One job of the set. */
  public record PlannedJob(int group, ZoneJobKind kind, ByteTargets targets) {
    /** @return the application name, which the NodeManager hook classifies */
    public String name() {
      return kind.word() + "-" + group;
    }
  }

  private ZoneJobSet() {
  }

  /** @return the jobs in submission order, reduce-heavy outputs filling the default share */
  public static List<PlannedJob> plan(long diskBytes, int groups) {
    return plan(diskBytes, groups, REDUCE_OUTPUT_SHARE);
  }

  /**
   * @param reduceOutputShare share of the disk the reduce-heavy jobs' outputs fill over the set
   *     (the seed's set ends with the disk full of them)
   * @return the jobs in submission order
   */
  public static List<PlannedJob> plan(long diskBytes, int groups, double reduceOutputShare) {
    checkReduceOutputShare(reduceOutputShare);
    if (groups < 3) {
      throw new IllegalArgumentException("the job set needs at least 3 groups (one of each "
          + "kind), got " + groups);
    }
    int reduceJobs = (groups + 2) / 3;
    List<PlannedJob> jobs = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      ZoneJobKind kind = ZoneJobKind.values()[g % 3];
      double outputShare = kind == ZoneJobKind.REDUCE_HEAVY
          ? reduceOutputShare / reduceJobs : SMALL_OUTPUT_SHARE;
      jobs.add(new PlannedJob(g, kind, new ByteTargets(share(diskBytes, kind.inputShare()),
          share(diskBytes, kind.shuffleShare()), share(diskBytes, outputShare), false)));
    }
    return jobs;
  }

  /** @throws IllegalArgumentException naming the limits if the share is outside them */
  public static void checkReduceOutputShare(double share) {
    if (!(share > 0 && share <= MAX_REDUCE_OUTPUT_SHARE)) {
      throw new IllegalArgumentException("the reduce-heavy outputs' share of the disk must be"
          + " above 0 and at most " + MAX_REDUCE_OUTPUT_SHARE + " (the input pool and the"
          + " outer area take the rest), got " + share);
    }
  }

  /** @return bytes of the input pool */
  public static long poolBytes(long diskBytes) {
    return share(diskBytes, POOL_SHARE);
  }

  private static long share(long diskBytes, double share) {
    return Math.max(1, Math.round(diskBytes * share));
  }
}
