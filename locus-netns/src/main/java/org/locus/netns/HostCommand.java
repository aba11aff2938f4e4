package org.locus.netns;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one host tool ({@code ip}, {@code tc}, {@code losetup}, {@code mount}, ...) as an
 * argument vector, never through a shell, so no value from the command line or a file can
 * change what is run.
 */
public final class HostCommand {
  private static final long TIMEOUT_SECONDS = 120;

  private HostCommand() {
  }

  /**
   * Runs {@code argv} and returns its standard output.
   *
   * @throws IOException naming the command and its output when it exits non-zero
   */
  public static String run(String... argv) throws IOException {
    Result result = attempt(argv);
    if (result.exitCode != 0) {
      throw new IOException("'" + String.join(" ", argv) + "' failed (exit " + result.exitCode
          + "): " + result.output.trim());
    }
    return result.output;
  }

  /** Runs {@code argv} and returns its exit code and output, whatever the exit code. */
  public static Result attempt(String... argv) throws IOException {
    Process process = new ProcessBuilder(List.of(argv)).redirectErrorStream(true).start();
    process.getOutputStream().close();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = process.getInputStream()) {
      in.transferTo(out);
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("'" + String.join(" ", argv) + "' did not finish within "
            + TIMEOUT_SECONDS + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted while running " + argv[0], e);
    }
    return new Result(process.exitValue(), out.toString(StandardCharsets.UTF_8));
  }

  /** The exit code and the merged standard output and error of a finished command. */
  public record Result(int exitCode, String output) {
  }
}
