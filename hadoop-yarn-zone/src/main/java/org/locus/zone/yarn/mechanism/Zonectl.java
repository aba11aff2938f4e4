package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.util.List;
import org.locus.zone.yarn.policy.ZoneClass;

/**
 * The zonectl tool, run as a child process with {@code -p} (directly or through the privileged
 * helper, as {@link ZoneCommands} builds the vectors): each call returns the state line zonectl
 * prints, or throws {@link ZonectlException} (non-zero exit, the helper's refusals included),
 * {@link CommandRunner.TimeoutException} (killed after the time limit) or another
 * {@link IOException} (could not start, output not a state line).
 */
public final class Zonectl {

  private final ZoneCommands commands;
  private final CommandRunner runner;

  public Zonectl(ZoneCommands commands, CommandRunner runner) {
    this.commands = commands;
    this.runner = runner;
  }

  /** {@code zonectl area DEV --class C --outer SIZE -p}: allow the area of the class only. */
  public ZoneState area(String device, ZoneClass zoneClass, String outerSize)
      throws IOException {
    return state("area", device, commands.area(device, zoneClass, outerSize));
  }

  /** {@code zonectl release DEV -p}: give back every block a reservation took. */
  public ZoneState release(String device) throws IOException {
    return state("release", device, commands.release(device));
  }

  /** {@code zonectl status DEV -p}: the active reservation, if any. */
  public ZoneState status(String device) throws IOException {
    return state("status", device, commands.status(device));
  }

  /**
   * {@code zonectl hold MOUNT --class C --outer SIZE -p}: the same area on the mounted file
   * system, held by a file (no unmount; the file system is full for a moment meanwhile).
   */
  public ZoneState hold(String mountPoint, ZoneClass zoneClass, String outerSize)
      throws IOException {
    return state("hold", mountPoint, commands.hold(mountPoint, zoneClass, outerSize));
  }

  /** {@code zonectl hold-release MOUNT -p}: free every held block. */
  public ZoneState holdRelease(String mountPoint) throws IOException {
    return state("hold-release", mountPoint, commands.holdRelease(mountPoint));
  }

  /** {@code zonectl hold-status MOUNT -p}: the held area; fails if no hold is possible. */
  public ZoneState holdStatus(String mountPoint) throws IOException {
    return state("hold-status", mountPoint, commands.holdStatus(mountPoint));
  }

  /** {@code zonectl hold-recover MOUNT -p}: finish an operation a crash interrupted. */
  public ZoneState holdRecover(String mountPoint) throws IOException {
    return state("hold-recover", mountPoint, commands.holdRecover(mountPoint));
  }

  /**
   * One check of {@code zonectl hold-monitor MOUNT --expand-below FREE --count 1 -p}
   * (seed 002 §4.3, expand only): returns its line, {@code action=expand|keep start=B end=B
   * free_blocks=N}.
   */
  public String holdMonitorTick(String mountPoint, String expandBelow) throws IOException {
    return execute("hold-monitor", mountPoint,
        commands.holdMonitorTick(mountPoint, expandBelow));
  }

  /**
   * {@code zonectl classify --profile FILE --beta B -p}: the class of a job from its
   * disk-usage profile (seed 002 §4.1; temp if used-after &lt; beta x max-used).
   */
  public ZoneClass classify(String profile, double beta) throws IOException {
    String line = execute("classify", profile, commands.classify(profile, beta));
    for (String token : line.split("\\s+")) {
      if (token.startsWith("class=")) {
        try {
          return ZoneClass.parse(token.substring("class=".length()), "zonectl classify");
        } catch (IllegalArgumentException e) {
          throw new IOException("zonectl classify " + profile + ": " + e.getMessage(), e);
        }
      }
    }
    throw new IOException("zonectl classify " + profile + " printed no class: '" + line + "'");
  }

  private ZoneState state(String command, String subject, List<String> argv)
      throws IOException {
    String line = execute(command, subject, argv);
    try {
      return ZoneState.parse(line);
    } catch (IllegalArgumentException e) {
      throw new IOException("zonectl " + command + " " + subject
          + " succeeded but its output is not a -p state line: " + e.getMessage(), e);
    }
  }

  /** Runs zonectl; returns its stdout, stripped, or throws naming the command and subject. */
  private String execute(String command, String subject, List<String> argv)
      throws IOException {
    CommandRunner.Result r;
    try {
      r = runner.run(argv);
    } catch (CommandRunner.TimeoutException e) {
      throw new CommandRunner.TimeoutException("zonectl " + command + " " + subject
          + ": " + e.getMessage() + "; if it was writing, run 'zonectl recover " + subject
          + "' before the next mount");
    }
    if (r.exitCode() != 0) {
      throw new ZonectlException(command, subject, r.exitCode(), r.stderr(),
          commands.isHelperRefusal(r.exitCode()));
    }
    return r.stdout().strip();
  }
}
