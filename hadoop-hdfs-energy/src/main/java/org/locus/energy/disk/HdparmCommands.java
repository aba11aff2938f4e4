package org.locus.energy.disk;

import java.util.ArrayList;
import java.util.List;

import org.locus.energy.EnergySettings;
import org.locus.energy.EnergySettings.HelperMode;

/**
 * The argument vector of each power command: the one place that decides what the DataNode runs.
 * With {@link HelperMode#DIRECT} it is hdparm's own command line (seed 000 §4.3.2); otherwise it
 * is a verb of the privileged helper {@code locus-priv} (docs/security.md), run through
 * {@code sudo -n} or set-user-ID root, which runs exactly that hdparm command as root on a
 * device its root-owned configuration lists, and nothing else:
 * <table>
 *   <caption>power commands</caption>
 *   <tr><th>command</th><th>hdparm</th><th>locus-priv</th></tr>
 *   <tr><td>drive timer</td><td>{@code -S N DEV}</td><td>{@code standby-timeout DEV N}</td></tr>
 *   <tr><td>standby</td><td>{@code -y DEV}</td><td>{@code spin-down DEV}</td></tr>
 *   <tr><td>sleep</td><td>{@code -Y DEV}</td><td>{@code sleep DEV}</td></tr>
 *   <tr><td>wake</td><td>{@code --read-sector 0 DEV}</td><td>{@code spin-up DEV}</td></tr>
 * </table>
 * Vectors only, never a shell string: no argument is ever interpreted by a shell.
 */
public final class HdparmCommands {
  /** Exit codes of the helper's own refusals (locus-priv/src/priv.h); others are hdparm's. */
  public static final int FIRST_REFUSAL = 200;
  public static final int LAST_REFUSAL = 206;

  private final HelperMode mode;
  private final String helper;
  private final String hdparm;

  public HdparmCommands(EnergySettings settings) {
    this(settings.helperMode(), settings.helperPath(), settings.hdparmPath());
  }

  public HdparmCommands(HelperMode mode, String helper, String hdparm) {
    this.mode = mode;
    this.helper = helper;
    this.hdparm = hdparm;
  }

  /** @return true when the commands go through locus-priv */
  public boolean viaHelper() {
    return mode != HelperMode.DIRECT;
  }

  /** @return true when the command ran through locus-priv and it refused (not hdparm) */
  public boolean isHelperRefusal(int exitCode) {
    return viaHelper() && exitCode >= FIRST_REFUSAL && exitCode <= LAST_REFUSAL;
  }

  public HelperMode mode() {
    return mode;
  }

  /** The drive's own idle timer, {@code code} as {@link HdparmDiskBackend#standbyTimeoutCode}. */
  public List<String> standbyTimeout(String device, int code) {
    String n = Integer.toString(code);
    return viaHelper() ? helper("standby-timeout", device, n) : hdparm(device, "-S", n);
  }

  /** Standby ({@code -y}) or sleep ({@code -Y}) now. */
  public List<String> spinDown(String device, boolean sleep) {
    return viaHelper() ? helper(sleep ? "sleep" : "spin-down", device)
        : hdparm(device, sleep ? "-Y" : "-y");
  }

  /** An uncached read of sector 0, which spins the drive up. */
  public List<String> wake(String device) {
    return viaHelper() ? helper("spin-up", device) : hdparm(device, "--read-sector", "0");
  }

  private List<String> hdparm(String device, String... options) {
    List<String> argv = new ArrayList<>();
    argv.add(hdparm);
    argv.addAll(List.of(options));
    argv.add(device);
    return List.copyOf(argv);
  }

  private List<String> helper(String verb, String device, String... args) {
    List<String> argv = new ArrayList<>();
    if (mode == HelperMode.SUDO) {
      argv.add("sudo");
      argv.add("-n");
    }
    argv.add(helper);
    argv.add(verb);
    argv.add(device);
    argv.addAll(List.of(args));
    return List.copyOf(argv);
  }
}
