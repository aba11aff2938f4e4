package org.locus.zone.yarn.mechanism;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.locus.zone.yarn.policy.ZoneClass;

/**
 * The argument vector of every command the zone hook runs: the one place that decides what the
 * NodeManager executes. zonectl's edits and mount/umount need root; with {@link Mode#DIRECT}
 * the hook runs zonectl and the configured mount/umount vectors itself (a NodeManager that is
 * root), otherwise each is a verb of the privileged helper {@code locus-priv}
 * (docs/security.md), run through {@code sudo -n} or set-user-ID root, which runs exactly that
 * command on a device or mount point its root-owned configuration lists:
 * <table>
 *   <caption>zone commands</caption>
 *   <tr><th>directly</th><th>through the helper</th></tr>
 *   <tr><td>{@code zonectl area DEV --class C --outer SIZE -p}</td>
 *       <td>{@code area DEV C SIZE}</td></tr>
 *   <tr><td>{@code zonectl release|status DEV -p}</td><td>{@code release|status DEV}</td></tr>
 *   <tr><td>{@code zonectl hold MOUNT --class C --outer SIZE -p}</td>
 *       <td>{@code hold MOUNT C SIZE}</td></tr>
 *   <tr><td>{@code zonectl hold-release|hold-status|hold-recover MOUNT -p}</td>
 *       <td>{@code hold-release|hold-status|hold-recover MOUNT}</td></tr>
 *   <tr><td>{@code zonectl hold-monitor MOUNT --expand-below FREE --count 1 -p}</td>
 *       <td>{@code hold-monitor MOUNT FREE}</td></tr>
 *   <tr><td>the umount / mount templates</td><td>{@code umount MOUNT}, {@code mount DEV MOUNT}
 *       (type and options from the helper's mount line)</td></tr>
 * </table>
 * {@code zonectl classify} reads a profile file and needs no privilege: it always runs zonectl
 * itself. Vectors only, never a shell string.
 */
public final class ZoneCommands {

  /** How the privileged commands get root (ZoneConfigKeys.HELPER_MODE). */
  public enum Mode {
    SUDO, SETUID, DIRECT;

    /** @throws IllegalArgumentException naming the key and the allowed values */
    public static Mode parse(String value, String key) {
      try {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(key + " must be sudo, setuid or direct, got '"
            + value + "'");
      }
    }
  }

  /** Exit codes of the helper's own refusals (locus-priv/src/priv.h); others are the tool's. */
  public static final int FIRST_REFUSAL = 200;
  public static final int LAST_REFUSAL = 206;

  private final Mode mode;
  private final String helper;
  private final String zonectl;
  private final List<String> umountTemplate;
  private final List<String> mountTemplate;

  /**
   * @param umountTemplate, mountTemplate argument vectors with {@code {device}} and
   *     {@code {mount-point}} replaced; used with {@link Mode#DIRECT} only
   */
  public ZoneCommands(Mode mode, String helper, String zonectl, List<String> umountTemplate,
      List<String> mountTemplate) {
    this.mode = mode;
    this.helper = helper;
    this.zonectl = zonectl;
    this.umountTemplate = List.copyOf(umountTemplate);
    this.mountTemplate = List.copyOf(mountTemplate);
  }

  /** zonectl run directly, with the default mount/umount vectors (tests, a root NodeManager). */
  public static ZoneCommands direct(String zonectl) {
    return new ZoneCommands(Mode.DIRECT, "", zonectl, List.of("umount", "{mount-point}"),
        List.of("mount", "{device}", "{mount-point}"));
  }

  public Mode mode() {
    return mode;
  }

  public boolean viaHelper() {
    return mode != Mode.DIRECT;
  }

  /** @return true when the helper itself refused (not zonectl, mount or umount) */
  public boolean isHelperRefusal(int exitCode) {
    return viaHelper() && exitCode >= FIRST_REFUSAL && exitCode <= LAST_REFUSAL;
  }

  public List<String> area(String device, ZoneClass zoneClass, String outerSize) {
    return viaHelper() ? helper("area", device, zoneClass.word(), outerSize)
        : zonectl("area", device, "--class", zoneClass.word(), "--outer", outerSize, "-p");
  }

  public List<String> release(String device) {
    return viaHelper() ? helper("release", device) : zonectl("release", device, "-p");
  }

  public List<String> status(String device) {
    return viaHelper() ? helper("status", device) : zonectl("status", device, "-p");
  }

  public List<String> hold(String mountPoint, ZoneClass zoneClass, String outerSize) {
    return viaHelper() ? helper("hold", mountPoint, zoneClass.word(), outerSize)
        : zonectl("hold", mountPoint, "--class", zoneClass.word(), "--outer", outerSize, "-p");
  }

  public List<String> holdRelease(String mountPoint) {
    return viaHelper() ? helper("hold-release", mountPoint)
        : zonectl("hold-release", mountPoint, "-p");
  }

  public List<String> holdStatus(String mountPoint) {
    return viaHelper() ? helper("hold-status", mountPoint)
        : zonectl("hold-status", mountPoint, "-p");
  }

  public List<String> holdRecover(String mountPoint) {
    return viaHelper() ? helper("hold-recover", mountPoint)
        : zonectl("hold-recover", mountPoint, "-p");
  }

  /** One check of the online monitor (seed 002 §4.3, expand only). */
  public List<String> holdMonitorTick(String mountPoint, String expandBelow) {
    return viaHelper() ? helper("hold-monitor", mountPoint, expandBelow)
        : zonectl("hold-monitor", mountPoint, "--expand-below", expandBelow, "--count", "1",
            "-p");
  }

  /** {@code zonectl classify}: reads a profile, needs no privilege, never goes through sudo. */
  public List<String> classify(String profile, double beta) {
    return List.of(zonectl, "classify", "--profile", profile, "--beta", Double.toString(beta),
        "-p");
  }

  public List<String> umount(String device, String mountPoint) {
    return viaHelper() ? helper("umount", mountPoint) : expand(umountTemplate, device,
        mountPoint);
  }

  public List<String> mount(String device, String mountPoint) {
    return viaHelper() ? helper("mount", device, mountPoint) : expand(mountTemplate, device,
        mountPoint);
  }

  private List<String> zonectl(String command, String subject, String... options) {
    List<String> argv = new ArrayList<>();
    argv.add(zonectl);
    argv.add(command);
    argv.add(subject);
    argv.addAll(List.of(options));
    return List.copyOf(argv);
  }

  private List<String> helper(String verb, String... args) {
    List<String> argv = new ArrayList<>();
    if (mode == Mode.SUDO) {
      argv.add("sudo");
      argv.add("-n");
    }
    argv.add(helper);
    argv.add(verb);
    argv.addAll(List.of(args));
    return List.copyOf(argv);
  }

  private static List<String> expand(List<String> template, String device, String mountPoint) {
    List<String> argv = new ArrayList<>(template.size());
    for (String arg : template) {
      argv.add(arg.replace("{device}", device).replace("{mount-point}", mountPoint));
    }
    return List.copyOf(argv);
  }
}
