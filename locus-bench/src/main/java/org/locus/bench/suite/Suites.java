package org.locus.bench.suite;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.locus.jobs.swim.SuiteJob;
import org.locus.jobs.swim.SwimScaling;
import org.locus.jobs.swim.SwimSuites;

/**
 * The named suites of {@code locus bench run --suite}.
 *
 * <ul>
 *   <li>{@code puma} / {@code puma-small} / {@code puma-tiny}: every PUMA job (seed 001
 *       Tables 4.6–4.7 plus sequence-count and ranked-inverted-index) and terasort's three
 *       steps, each on a generated input of 256 MiB / 32 MiB / 256 KiB;</li>
 *   <li>{@code swim-map-heavy}, {@code swim-shuffle-heavy}, {@code swim-reduce-heavy}: one
 *       group of 20 seed-002 jobs; {@code zone-groups}: seed 002 §5.1's 27 groups;</li>
 *   <li>{@code swim-fb2009} / {@code swim-fb2010}: the first hour of that trace, needs
 *       {@code --trace FILE}.</li>
 * </ul>
 * SWIM jobs read a generated text pool.
 */
public final class Suites {
  /** Heavy and light byte targets of the crafted SWIM groups. */
  static final long SWIM_HEAVY = 16L << 20;
  static final long SWIM_LIGHT = 64L << 10;

  private Suites() {
  }

  /** @return the suite names, for help and errors */
  public static List<String> names() {
    return List.of("puma", "puma-small", "puma-tiny", "swim-map-heavy", "swim-shuffle-heavy",
        "swim-reduce-heavy", "zone-groups", "swim-fb2009", "swim-fb2010");
  }

  /**
   * @param jobs the suite's jobs to keep; empty for all
   * @return suite {@code name} (not a trace replay) cut down to {@code jobs}
   */
  public static BenchSuite select(String name, java.util.List<String> jobs, int nodes)
      throws IOException {
    BenchSuite suite = get(name, null, nodes);
    return jobs.isEmpty() ? suite : suite.only(jobs);
  }

  /**
   * @param trace the trace file for the {@code swim-fb*} suites, else unused (may be null)
   * @param nodes nodes of the cluster here, for trace scaling
   * @throws IllegalArgumentException for an unknown name or a missing trace
   */
  public static BenchSuite get(String name, Path trace, int nodes) throws IOException {
    return switch (name) {
      case "puma" -> puma(name, 256L << 20);
      case "puma-small" -> puma(name, 32L << 20);
      case "puma-tiny" -> puma(name, 256L << 10);
      case "swim-map-heavy" -> swim(name, SwimSuites.group(SwimSuites.Kind.MAP_HEAVY, 1, 0,
          SWIM_HEAVY, SWIM_LIGHT));
      case "swim-shuffle-heavy" -> swim(name, SwimSuites.group(SwimSuites.Kind.SHUFFLE_HEAVY, 1,
          0, SWIM_HEAVY, SWIM_LIGHT));
      case "swim-reduce-heavy" -> swim(name, SwimSuites.group(SwimSuites.Kind.REDUCE_HEAVY, 1,
          0, SWIM_HEAVY, SWIM_LIGHT));
      case "zone-groups" -> swim(name, SwimSuites.zoneGroups(SWIM_HEAVY, SWIM_LIGHT));
      case "swim-fb2009", "swim-fb2010" -> {
        if (trace == null) {
          throw new IllegalArgumentException("suite " + name + " replays a trace: pass --trace"
              + " FILE (e.g. data/swim/FB-2009_samples_24_times_1hr_0.tsv)");
        }
        int original = name.endsWith("2009") ? SwimScaling.FB2009_NODES
            : SwimScaling.FB2010_NODES;
        yield swim(name, SwimSuites.replay(trace, 1,
            new SwimScaling((double) original / nodes, SWIM_LIGHT, SWIM_HEAVY)));
      }
      default -> throw new IllegalArgumentException("unknown suite '" + name + "'; one of: "
          + String.join(", ", names()));
    };
  }

  static BenchSuite puma(String name, long bytes) {
    List<BenchJob> jobs = new ArrayList<>();
    jobs.add(BenchJob.generated("wordcount", "text", bytes));
    jobs.add(BenchJob.generated("grep", "text", bytes, "regex", "w1[0-9a-f]"));
    jobs.add(BenchJob.generated("inverted-index", "text", bytes));
    jobs.add(BenchJob.generated("term-vector", "text", bytes));
    jobs.add(BenchJob.generated("sequence-count", "text", bytes));
    jobs.add(BenchJob.generated("ranked-inverted-index", "text", bytes));
    jobs.add(BenchJob.generated("self-join", "itemsets", bytes));
    jobs.add(BenchJob.generated("adjacency-list", "edges", bytes));
    jobs.add(BenchJob.generated("histogram-movies", "ratings", bytes));
    jobs.add(BenchJob.generated("histogram-ratings", "ratings", bytes));
    jobs.add(BenchJob.generated("classification", "ratings", bytes));
    jobs.add(BenchJob.generated("k-means", "ratings", bytes, "iterations", "2"));
    jobs.add(new BenchJob("teragen", "teragen", "none", 0,
        BenchJob.pairs("size", String.valueOf(bytes))));
    jobs.add(new BenchJob("terasort", "terasort", "job:teragen", 0, Map.of()));
    jobs.add(new BenchJob("teravalidate", "teravalidate", "job:terasort", 0,
        BenchJob.pairs("records", String.valueOf(bytes / 100))));
    return new BenchSuite(name, jobs);
  }

  static BenchSuite swim(String name, List<SuiteJob> swimJobs) {
    long pool = Math.max(SWIM_HEAVY, swimJobs.stream()
        .mapToLong(j -> j.targets().inputBytes()).max().orElse(SWIM_LIGHT));
    List<BenchJob> jobs = new ArrayList<>();
    for (SuiteJob job : swimJobs) {
      jobs.add(new BenchJob(job.name(), "swim-synthetic", "kind:text", pool, BenchJob.pairs(
          "input-bytes", String.valueOf(job.targets().inputBytes()),
          "shuffle-bytes", String.valueOf(job.targets().shuffleBytes()),
          "output-bytes", String.valueOf(job.targets().outputBytes()))));
    }
    return new BenchSuite(name, jobs);
  }
}
