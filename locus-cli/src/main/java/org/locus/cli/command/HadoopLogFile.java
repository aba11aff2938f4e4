package org.locus.cli.command;

import java.io.File;
import java.io.IOException;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

import org.apache.log4j.FileAppender;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;

/**
 * Sends everything the embedded Hadoop daemons log — through log4j, and through
 * {@code java.util.logging} (Jersey and Guice in the YARN web apps) — to one file, so the
 * terminal shows only what the command itself prints. Used by the commands that run Hadoop
 * in their own JVM: the demo (embedded daemons) and the benches (clients, embedded daemons).
 */
public final class HadoopLogFile {
  private HadoopLogFile() {
  }

  /** From now on this JVM's log records go to {@code file} (appended) and nowhere else. */
  public static void redirectTo(File file) throws IOException {
    if (!file.getParentFile().isDirectory() && !file.getParentFile().mkdirs()) {
      throw new IOException("cannot create the log directory " + file.getParentFile());
    }
    Logger root = LogManager.getRootLogger();
    root.removeAllAppenders();
    root.addAppender(new FileAppender(
        new PatternLayout("%d{ISO8601} %-5p %c{1} [%t] - %m%n"), file.getPath(), true));
    root.setLevel(Level.INFO);
    java.util.logging.LogManager.getLogManager().reset();
    java.util.logging.Logger.getLogger("").addHandler(new ToLog4j());
  }

  /** Forwards java.util.logging records to the log4j logger of the same name. */
  private static final class ToLog4j extends Handler {
    @Override
    public void publish(LogRecord record) {
      if (record == null || !isLoggable(record)) {
        return;
      }
      int julLevel = record.getLevel().intValue();
      Level level = julLevel >= java.util.logging.Level.SEVERE.intValue() ? Level.ERROR
          : julLevel >= java.util.logging.Level.WARNING.intValue() ? Level.WARN
          : julLevel >= java.util.logging.Level.INFO.intValue() ? Level.INFO : Level.DEBUG;
      String name = record.getLoggerName() == null ? "jul" : record.getLoggerName();
      Logger.getLogger(name).log(level, record.getMessage(), record.getThrown());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  }
}
