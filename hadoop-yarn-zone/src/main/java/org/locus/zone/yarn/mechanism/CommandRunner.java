package org.locus.zone.yarn.mechanism;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one external command from an argument vector (never through a shell) with a time limit,
 * and returns its exit code and output. Output goes to temporary files, so a chatty command
 * cannot block on a full pipe.
 */
public final class CommandRunner {

  /** What a finished command left behind. */
  public record Result(int exitCode, String stdout, String stderr) {
  }

  /** Thrown when a command runs longer than its limit; the process has been killed. */
  public static final class TimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    TimeoutException(String message) {
      super(message);
    }
  }

  private final Duration timeout;
  private final Map<String, String> environment;

  /** @param environment variables added to the NodeManager's own for every command */
  public CommandRunner(Duration timeout, Map<String, String> environment) {
    this.timeout = timeout;
    this.environment = Map.copyOf(environment);
  }

  public Duration timeout() {
    return timeout;
  }

  public Result run(List<String> argv) throws IOException {
    Path out = Files.createTempFile("locus-zone-cmd", ".out");
    Path err = Files.createTempFile("locus-zone-cmd", ".err");
    try {
      ProcessBuilder pb = new ProcessBuilder(argv)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(out.toFile())
          .redirectError(err.toFile());
      pb.environment().putAll(environment);
      Process p = pb.start();
      boolean done;
      try {
        done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while running " + argv, e);
      }
      if (!done) {
        p.destroyForcibly();
        throw new TimeoutException(
            argv + " did not finish within " + timeout.toMillis() + " ms and was killed");
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
