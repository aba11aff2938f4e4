package org.locus.bench.replay;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.bench.report.ReplayTimelineSvg;
import org.locus.bench.run.BenchCluster;
import org.locus.jobs.data.DataGenerators;
import org.locus.jobs.swim.SuiteJob;
import org.locus.jobs.swim.SwimScaling;
import org.locus.jobs.swim.SwimSuites;

/**
 * {@code locus bench swim}: the first hours of a SWIM trace replayed on one cluster. Scales
 * every job's bytes ({@link SwimScaling}), writes a text pool as large as the largest input,
 * replays the jobs at their compressed trace times ({@link TraceReplay}) and writes
 * {@code replay.json} ({@link ReplayFile}) and its picture, {@code timeline.svg}
 * ({@link ReplayTimelineSvg}).
 */
public final class SwimReplayBench {
  private static final long SEED = 42;

  private final SwimTraces trace;
  private final double hours;
  private final SwimScaling scaling;
  private final double compression;
  private final int reducers;
  private final PrintStream progress;

  public SwimReplayBench(SwimTraces trace, double hours, SwimScaling scaling,
      double compression, int reducers, PrintStream progress) {
    if (!(hours > 0)) {
      throw new IllegalArgumentException("hours must be > 0, got " + hours);
    }
    this.trace = trace;
    this.hours = hours;
    this.scaling = scaling;
    this.compression = compression;
    this.reducers = reducers;
    this.progress = progress;
  }

  /** @return the jobs to replay: the trace's first hours, scaled */
  public List<SuiteJob> jobs() {
    return SwimSuites.replay(trace.name(), trace.jobs(), hours, scaling);
  }

  /** Replays on {@code cluster}, writes {@code out/replay.json}, returns the result. */
  public ReplayFile run(BenchCluster cluster, File out) throws IOException,
      InterruptedException {
    List<SuiteJob> jobs = jobs();
    if (jobs.isEmpty()) {
      throw new IllegalArgumentException("trace " + trace.name() + " has no job in its first "
          + hours + " h");
    }
    Configuration conf = cluster.conf();
    FileSystem fs = FileSystem.get(conf);
    Path root = new Path(cluster.root(), "swim-replay");
    fs.delete(root, true);
    long poolBytes = jobs.stream().mapToLong(j -> j.targets().inputBytes()).max().orElseThrow();
    Path pool = new Path(root, "pool");
    progress.printf("generating the input pool %s: %d bytes of text%n", pool, poolBytes);
    new DataGenerators().get("text").write(fs, pool, poolBytes, 4, SEED);
    long clipped = jobs.stream().filter(j -> j.targets().clipped()).count();
    progress.printf("replaying %d jobs of %s (first %s h, bytes / %.1f, clipped to [%d, %d]:"
        + " %d jobs clipped) %s times faster than the trace%n", jobs.size(), trace.name(),
        hours, scaling.divisor(), scaling.minBytes(), scaling.maxBytes(), clipped,
        compression);
    List<ReplayedJob> replayed = new TraceReplay(jobs, compression, reducers, progress)
        .replay(conf, pool, new Path(root, "out"));
    ReplayFile result = new ReplayFile(trace.name(), hours, scaling, compression, replayed);
    out.mkdirs();
    result.write(new File(out, "replay.json"));
    ReplayTimelineSvg.write(new File(out, "timeline.svg").toPath(), String.format(
        java.util.Locale.ROOT, "%s, first %s h, %s times faster: %d jobs", trace.name(), hours,
        compression, replayed.size()), replayed);
    return result;
  }
}
