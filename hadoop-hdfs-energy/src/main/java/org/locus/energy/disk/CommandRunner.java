package org.locus.energy.disk;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one external command from an argument vector (never a shell string, so no argument is
 * ever interpreted by a shell), with a time limit, and returns its exit code and output.
 */
public class CommandRunner {
  private final long timeoutMillis;

  public CommandRunner(long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
  }

  /** Exit code and combined stdout/stderr of a finished command. */
  public record Result(int exitCode, String output) {
  }

  /** The command overran its time limit and was killed. */
  public static class TimedOutException extends IOException {
    private static final long serialVersionUID = 1L;

    TimedOutException(String message) {
      super(message);
    }
  }

  /**
   * @throws TimedOutException if the command overruns the runner's time limit (it is killed)
   * @throws IOException if the command cannot start
   */
  public Result run(List<String> argv) throws IOException {
    return run(argv, timeoutMillis);
  }

  /**
   * Runs with a time limit of its own, e.g. a wake that may legitimately take a spin-up time.
   *
   * @throws TimedOutException if the command overruns {@code timeoutMillis} (it is killed)
   * @throws IOException if the command cannot start
   */
  public Result run(List<String> argv, long timeoutMillis) throws IOException {
    Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    process.getOutputStream().close();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    Thread reader = new Thread(() -> copy(process.getInputStream(), output),
        "output of " + argv.get(0));
    reader.setDaemon(true);
    reader.start();
    try {
      if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new TimedOutException("'" + String.join(" ", argv) + "' did not finish within "
            + timeoutMillis + " ms and was killed");
      }
      reader.join(timeoutMillis);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + argv, e);
    }
    synchronized (output) {
      return new Result(process.exitValue(), output.toString(StandardCharsets.UTF_8).trim());
    }
  }

  private static void copy(InputStream in, ByteArrayOutputStream out) {
    byte[] buffer = new byte[4096];
    try (in) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        synchronized (out) {
          out.write(buffer, 0, n);
        }
      }
    } catch (IOException e) {
      // the process was killed; its exit code tells the caller
    }
  }
}
