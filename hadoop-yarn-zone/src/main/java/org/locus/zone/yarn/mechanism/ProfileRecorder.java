package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;

/**
 * Records each application's disk-usage profile (seed 002 §4.1): the local-dir usage sampled
 * from the application's start until a settle time after its stop, written as
 * {@code TIME USED} lines (seconds since the start, bytes) to the {@link JobProfiles} file of
 * its name, which {@code zonectl classify} reads the next time that name starts. Usage is
 * node-wide: applications that overlap on the node see each other's data (the seed runs jobs
 * one after another).
 *
 * <p>Time is passed in (milliseconds) so the caller owns the clock; not thread safe, the
 * service calls it under its lock.
 */
public final class ProfileRecorder {

  private record Sample(long millis, long used) {
  }

  private static final class Series {
    final String name;
    final long startMillis;
    final List<Sample> samples = new ArrayList<>();
    long stoppedMillis = -1;

    Series(String name, long startMillis) {
      this.name = name;
      this.startMillis = startMillis;
    }
  }

  private final JobProfiles profiles;
  private final UsageSource usage;
  private final long settleMillis;
  private final Map<ApplicationId, Series> series = new HashMap<>();

  public ProfileRecorder(JobProfiles profiles, UsageSource usage, long settleMillis) {
    this.profiles = profiles;
    this.usage = usage;
    this.settleMillis = settleMillis;
  }

  /** An application started: its series begins with one sample now. No name: not recorded. */
  public void start(ApplicationId app, String name, long nowMillis) throws IOException {
    if (name == null || series.containsKey(app)) {
      return;
    }
    Series s = new Series(name, nowMillis);
    series.put(app, s);
    s.samples.add(new Sample(nowMillis, usage.usedBytes()));
  }

  /** The application stopped; its series goes on for the settle time. */
  public void stop(ApplicationId app, long nowMillis) {
    Series s = series.get(app);
    if (s != null && s.stoppedMillis < 0) {
      s.stoppedMillis = nowMillis;
    }
  }

  /**
   * One sample for every open series, then writes the series whose settle time is over.
   *
   * @return the profile files written
   */
  public List<Path> tick(long nowMillis) throws IOException {
    List<Path> written = new ArrayList<>();
    if (series.isEmpty()) {
      return written;
    }
    long used = usage.usedBytes();
    for (Iterator<Series> it = series.values().iterator(); it.hasNext();) {
      Series s = it.next();
      s.samples.add(new Sample(nowMillis, used));
      if (s.stoppedMillis >= 0 && nowMillis - s.stoppedMillis >= settleMillis) {
        it.remove();
        written.add(write(s));
      }
    }
    return written;
  }

  /** Number of series still being recorded. */
  public int open() {
    return series.size();
  }

  private Path write(Series s) throws IOException {
    Path file = profiles.pathFor(s.name);
    StringBuilder text = new StringBuilder("# disk-usage profile of ").append(s.name)
        .append(" (seconds since start, bytes used), recorded by the locus_zone hook\n");
    for (Sample sample : s.samples) {
      double seconds = (sample.millis - s.startMillis) / 1000.0;
      text.append(String.format(Locale.ROOT, "%.3f %d%n", seconds, sample.used));
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return file;
  }
}
