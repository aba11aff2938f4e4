package org.locus.bench.zone;

import java.util.ArrayList;
import java.util.List;

import org.locus.jobs.swim.ByteTargets;

/**
 * The job sequence of one run: {@code groups} groups cycling map-, shuffle-, reduce-heavy
 * (seed 002 §5.1 runs 27 such groups one after another), one job per group, sized for a disk
 * of {@code diskBytes}. Reduce-heavy jobs share {@link #REDUCE_OUTPUT_SHARE} of the disk as
 * output; the other jobs write {@link #SMALL_OUTPUT_SHARE} each.
 */
public final class ZoneJobSet {
  /** Share of the disk the reduce-heavy jobs' outputs fill over the whole set. */
  public static final double REDUCE_OUTPUT_SHARE = 0.45;
  /** Share of the disk a map- or shuffle-heavy job writes as output. */
  public static final double SMALL_OUTPUT_SHARE = 0.002;
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

  /** @return the jobs in submission order */
  public static List<PlannedJob> plan(long diskBytes, int groups) {
    if (groups < 3) {
      throw new IllegalArgumentException("the job set needs at least 3 groups (one of each "
          + "kind), got " + groups);
    }
    int reduceJobs = (groups + 2) / 3;
    List<PlannedJob> jobs = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      ZoneJobKind kind = ZoneJobKind.values()[g % 3];
      double outputShare = kind == ZoneJobKind.REDUCE_HEAVY
          ? REDUCE_OUTPUT_SHARE / reduceJobs : SMALL_OUTPUT_SHARE;
      jobs.add(new PlannedJob(g, kind, new ByteTargets(share(diskBytes, kind.inputShare()),
          share(diskBytes, kind.shuffleShare()), share(diskBytes, outputShare), false)));
    }
    return jobs;
  }

  /** @return bytes of the input pool */
  public static long poolBytes(long diskBytes) {
    return share(diskBytes, POOL_SHARE);
  }

  private static long share(long diskBytes, double share) {
    return Math.max(1, Math.round(diskBytes * share));
  }
}
