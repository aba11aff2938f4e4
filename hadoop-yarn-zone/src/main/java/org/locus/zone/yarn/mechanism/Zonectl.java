package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.locus.zone.yarn.policy.ZoneClass;

/**
 * The zonectl tool, run as a child process with {@code -p}: each call returns the state line
 * zonectl prints, or throws {@link ZonectlException} (non-zero exit),
 * {@link CommandRunner.TimeoutException} (killed after the time limit) or another
 * {@link IOException} (could not start, output not a state line).
 */
public final class Zonectl {

  private final String binary;
  private final CommandRunner runner;

  public Zonectl(String binary, CommandRunner runner) {
    this.binary = binary;
    this.runner = runner;
  }

  /** {@code zonectl area DEV --class C --outer SIZE -p}: allow the area of the class only. */
  public ZoneState area(String device, ZoneClass zoneClass, String outerSize)
      throws IOException {
    return run("area", device, "--class", zoneClass.word(), "--outer", outerSize);
  }

  /** {@code zonectl release DEV -p}: give back every block a reservation took. */
  public ZoneState release(String device) throws IOException {
    return run("release", device);
  }

  /** {@code zonectl status DEV -p}: the active reservation, if any. */
  public ZoneState status(String device) throws IOException {
    return run("status", device);
  }

  private ZoneState run(String command, String device, String... options) throws IOException {
    List<String> argv = new ArrayList<>();
    argv.add(binary);
    argv.add(command);
    argv.add(device);
    argv.addAll(List.of(options));
    argv.add("-p");
    CommandRunner.Result r;
    try {
      r = runner.run(argv);
    } catch (CommandRunner.TimeoutException e) {
      throw new CommandRunner.TimeoutException("zonectl " + command + " " + device
          + ": " + e.getMessage() + "; if it was writing, run 'zonectl recover " + device
          + "' before the next mount");
    }
    if (r.exitCode() != 0) {
      throw new ZonectlException(command, device, r.exitCode(), r.stderr());
    }
    String line = r.stdout().strip();
    try {
      return ZoneState.parse(line);
    } catch (IllegalArgumentException e) {
      throw new IOException("zonectl " + command + " " + device
          + " succeeded but its output is not a -p state line: " + e.getMessage(), e);
    }
  }
}
