package org.locus.bench.energy;

import java.io.File;
import java.io.IOException;

import org.apache.log4j.FileAppender;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;

/**
 * The bench's record of what the power managers decided: their INFO lines (wake-ups and why,
 * volumes adopted) go, with timestamps, to a file beside the report, between the bench's own
 * marks (round, set-up, workload start and end), so a stall in the report can be traced to the
 * wake that came too late. Nothing of it reaches the console.
 */
final class PowerManagerLog implements AutoCloseable {
  private static final String MANAGER_LOGGER = "org.locus.energy";
  private static final String BENCH_LOGGER = EnergyBench.class.getName();

  private final FileAppender appender;
  private final Logger manager = Logger.getLogger(MANAGER_LOGGER);
  private final Logger bench = Logger.getLogger(BENCH_LOGGER);
  private final Level managerLevel;
  private final boolean managerAdditivity;

  private PowerManagerLog(FileAppender appender) {
    this.appender = appender;
    managerLevel = manager.getLevel();
    managerAdditivity = manager.getAdditivity();
    for (Logger logger : new Logger[] {manager, bench}) {
      logger.addAppender(appender);
      logger.setLevel(Level.INFO);
      logger.setAdditivity(false);
    }
  }

  /** Starts logging into {@code file}, replacing an earlier one. */
  static PowerManagerLog into(File file) throws IOException {
    return new PowerManagerLog(new FileAppender(
        new PatternLayout("%d{ISO8601} %-5p %c{1}: %m%n"), file.getPath(), false));
  }

  /** Writes a bench event between the managers' lines. */
  void mark(String event) {
    bench.info("---- " + event);
  }

  @Override
  public void close() {
    manager.removeAppender(appender);
    bench.removeAppender(appender);
    manager.setLevel(managerLevel);
    manager.setAdditivity(managerAdditivity);
    appender.close();
  }
}
