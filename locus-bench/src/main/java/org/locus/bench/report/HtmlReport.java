package org.locus.bench.report;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * {@code report.html} and its PNG charts, drawn by {@code bench-report.py} (matplotlib) from
 * {@code results.json}: per-job wall time with min-max spread per feature, mean time relative
 * to the {@code none} feature set, and map output (shuffle) bytes.
 */
public final class HtmlReport {
  private HtmlReport() {
  }

  /** Debian's python3, where setup installs python3-matplotlib, ahead of any other on PATH. */
  private static String python() {
    return new File("/usr/bin/python3").canExecute() ? "/usr/bin/python3" : "python3";
  }

  /**
   * Runs the report script on {@code dir/results.json}.
   *
   * @throws IOException naming what to install when python3 or matplotlib is missing
   */
  public static File write(File dir) throws IOException, InterruptedException {
    File script = new File(dir, ".bench-report.py");
    try (InputStream in = HtmlReport.class.getResourceAsStream("bench-report.py")) {
      Files.copy(in, script.toPath(), StandardCopyOption.REPLACE_EXISTING);
    }
    File log = new File(dir, "report.log");
    Process process = new ProcessBuilder(python(), script.getPath(), dir.getPath())
        .redirectErrorStream(true).redirectOutput(log).start();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IOException("the report script did not finish in 5 minutes; see " + log);
    }
    script.delete();
    if (process.exitValue() != 0) {
      throw new IOException("the report script failed (exit " + process.exitValue() + "): "
          + Files.readString(log.toPath()).strip() + " — it needs python3 with matplotlib"
          + " (Debian: python3-matplotlib); results.json is complete");
    }
    return new File(dir, "report.html");
  }
}
