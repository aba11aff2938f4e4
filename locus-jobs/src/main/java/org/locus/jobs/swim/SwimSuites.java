package org.locus.jobs.swim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Named sets of synthetic jobs: trace replays and the crafted job groups of seed 002.
 *
 * <p>Seed 002 §3 ran three kinds of SWIM job: <em>map-heavy</em> (map input bytes large,
 * shuffle and output bytes unity), <em>shuffle-heavy</em> (shuffle large, the others unity) and
 * <em>reduce-heavy</em> (output large), all submitted one second apart; §5.1's job set is 27
 * groups of 20 jobs, the sequence map-, shuffle-, reduce-heavy repeated nine times. Here
 * "large" is {@code heavyBytes} and "unity" is {@code lightBytes}, the smallest target that the
 * synthetic job can hit within 10 % (a single byte cannot be shuffled without framing).
 */
public final class SwimSuites {
  /** Jobs per crafted group (seed 002 §5.1). */
  public static final int JOBS_PER_GROUP = 20;
  /** Repetitions of the map/shuffle/reduce-heavy sequence in the zone job set (seed 002 §5.1). */
  public static final int ZONE_REPEATS = 9;

  /** The three job kinds of seed 002 §3. */
  public enum Kind {
    MAP_HEAVY("map-heavy"), SHUFFLE_HEAVY("shuffle-heavy"), REDUCE_HEAVY("reduce-heavy");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }

    ByteTargets targets(long heavy, long light) {
      return switch (this) {
        case MAP_HEAVY -> new ByteTargets(heavy, light, light, false);
        case SHUFFLE_HEAVY -> new ByteTargets(light, heavy, light, false);
        case REDUCE_HEAVY -> new ByteTargets(light, light, heavy, false);
      };
    }
  }

  private SwimSuites() {
  }

  /** @return one group of {@value #JOBS_PER_GROUP} jobs of one kind, one second apart */
  public static List<SuiteJob> group(Kind kind, int groupNumber, double startSeconds,
      long heavyBytes, long lightBytes) {
    List<SuiteJob> jobs = new ArrayList<>();
    String group = kind.label() + "-" + groupNumber;
    for (int i = 0; i < JOBS_PER_GROUP; i++) {
      jobs.add(new SuiteJob(group + "." + (i + 1), group, startSeconds + i,
          kind.targets(heavyBytes, lightBytes)));
    }
    return jobs;
  }

  /**
   * @return seed 002 §5.1's job set: 27 groups (map-, shuffle-, reduce-heavy, nine times) of
   *     20 jobs, every job one second after the previous
   */
  public static List<SuiteJob> zoneGroups(long heavyBytes, long lightBytes) {
    List<SuiteJob> jobs = new ArrayList<>();
    int number = 0;
    for (int repeat = 0; repeat < ZONE_REPEATS; repeat++) {
      for (Kind kind : Kind.values()) {
        number++;
        jobs.addAll(group(kind, number, jobs.size(), heavyBytes, lightBytes));
      }
    }
    return jobs;
  }

  /** @return the jobs of the first {@code hours} of a trace, scaled */
  public static List<SuiteJob> replay(Path trace, double hours, SwimScaling scaling)
      throws IOException {
    return replay(trace.getFileName().toString(), SwimTrace.read(trace), hours, scaling);
  }

  /** @return the jobs of the first {@code hours} of trace rows already read, scaled */
  public static List<SuiteJob> replay(String name, List<SwimTraceJob> rows, double hours,
      SwimScaling scaling) {
    List<SuiteJob> jobs = new ArrayList<>();
    for (SwimTraceJob job : SwimTrace.firstHours(rows, hours)) {
      jobs.add(new SuiteJob(job.name(), name, job.submitSeconds(), scaling.scale(job)));
    }
    return jobs;
  }
}
