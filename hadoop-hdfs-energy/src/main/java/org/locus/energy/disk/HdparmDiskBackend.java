package org.locus.energy.disk;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.EnergySettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Real disks: power commands are {@code hdparm} runs (seed 000 §4.3.2, Listing 4.1 ran
 * {@code sudo hdparm -Y /dev/sdb}), built as argument vectors by {@link HdparmCommands}, by
 * default through the privileged helper {@code locus-priv} (docs/security.md), each with a
 * time limit:
 * <ul>
 *   <li>automatic mode: {@code hdparm -S N dev} (N encodes the idle timeout, see
 *       {@link #standbyTimeoutCode(long)}; 0 turns the drive's timer off);</li>
 *   <li>manual mode: {@code hdparm -y dev} (standby) or {@code hdparm -Y dev} (sleep);</li>
 *   <li>wake: {@code hdparm --read-sector 0 dev}, an uncached read that spins the drive up.</li>
 * </ul>
 * State is never polled with {@code hdparm -C}: spin-down tools report that it wakes some
 * drives; the manager models the state from the commands it issues and the I/O it observes.
 *
 * <p>Devices that take no ATA power commands are refused with {@link
 * UnsupportedDeviceException}: by name when the mount table shows a loop, virtio, Xen, RAM or
 * network block device, and by hdparm's own answer ({@code Invalid argument}, {@code
 * Inappropriate ioctl}) otherwise.
 */
public class HdparmDiskBackend implements DiskPowerBackend {
  private static final Logger LOG = LoggerFactory.getLogger(HdparmDiskBackend.class);
  private static final Pattern UNSUPPORTED_NAME =
      Pattern.compile("(loop|vd|xvd|ram|zram|nbd|rbd)[0-9a-z]*");

  private final HdparmCommands commands;
  private final CommandRunner runner;
  private final long spinUpTimeoutMillis;
  private final DiskPowerProfile profile;
  private final MountTable mounts;

  public HdparmDiskBackend(Configuration conf, MountTable mounts) {
    this(EnergySettings.from(conf), mounts);
  }

  public HdparmDiskBackend(EnergySettings settings, MountTable mounts) {
    this.commands = new HdparmCommands(settings);
    this.runner = new CommandRunner(settings.commandTimeoutMillis());
    this.spinUpTimeoutMillis = settings.spinUpTimeoutMillis();
    this.profile = settings.driveProfile();
    this.mounts = mounts;
  }

  @Override
  public String name() {
    return "hdparm";
  }

  @Override
  public DiskPowerProfile profile() {
    return profile;
  }

  @Override
  public BlockDevice resolve(File volumeDir) throws IOException {
    MountTable.Mount mount = mounts.mountOf(volumeDir);
    if (!mount.source().startsWith("/dev/")) {
      throw new UnsupportedDeviceException("volume " + volumeDir + " is on a " + mount.fsType()
          + " file system from '" + mount.source() + "', not a block device; hdparm cannot "
          + "power-manage it, so it stays spinning");
    }
    String device = Path.of(mount.source()).toRealPath().toString();
    String name = new File(device).getName();
    if (UNSUPPORTED_NAME.matcher(name).matches()) {
      throw new UnsupportedDeviceException("volume " + volumeDir + " is on " + device
          + ", a loop/virtio/RAM/network device; hdparm power commands need an ATA or SCSI "
          + "disk (sd*, hd*), so this volume stays spinning");
    }
    return new BlockDevice(volumeDir, device);
  }

  @Override
  public void setStandbyTimeout(BlockDevice device, long idleMillis) throws IOException {
    run(device, commands.standbyTimeout(device.devicePath(), standbyTimeoutCode(idleMillis)));
  }

  @Override
  public void spinDown(BlockDevice device, boolean sleep) throws IOException {
    run(device, commands.spinDown(device.devicePath(), sleep));
  }

  /**
   * Runs the wake within {@link EnergyConfigKeys#SPINUP_TIMEOUT_MS}, not the general command
   * limit: a healthy drive answers once it has spun up.
   *
   * @throws SpinUpFailedException when hdparm itself failed or overran the bound (killed)
   * @throws IOException when the helper, sudo or hdparm could not run the command at all
   */
  @Override
  public void wake(BlockDevice device) throws IOException {
    List<String> argv = commands.wake(device.devicePath());
    CommandRunner.Result result;
    try {
      result = runner.run(argv, spinUpTimeoutMillis);
    } catch (CommandRunner.TimedOutException e) {
      throw new SpinUpFailedException(e.getMessage() + " (" + EnergyConfigKeys.SPINUP_TIMEOUT_MS
          + ")");
    }
    if (result.exitCode() != 0) {
      throw failure(device, argv, result, true);
    }
    LOG.debug("{}: {}", argv, result.output());
  }

  /**
   * hdparm(8) {@code -S} encoding: 0 = off; 1..240 = multiples of 5 s; 241..251 = 1..11 units
   * of 30 min. The timeout is rounded up to the next step the drive can express.
   */
  public static int standbyTimeoutCode(long idleMillis) {
    if (idleMillis <= 0) {
      return 0;
    }
    long seconds = (idleMillis + 999) / 1000;
    if (seconds <= 240 * 5) {
      return (int) Math.max(1, (seconds + 4) / 5);
    }
    long halfHours = (seconds + 1799) / 1800;
    return (int) Math.min(251, 240 + halfHours);
  }

  private void run(BlockDevice device, List<String> argv) throws IOException {
    CommandRunner.Result result = runner.run(argv);
    if (result.exitCode() != 0) {
      throw failure(device, argv, result, false);
    }
    LOG.debug("{}: {}", argv, result.output());
  }

  /**
   * What a non-zero exit means: a refusal of the helper or of sudo (configuration, nothing
   * about the disk), a device that takes no power commands ({@link
   * UnsupportedDeviceException}), or else hdparm's own failure, which for a wake means the disk
   * did not spin up ({@link SpinUpFailedException}).
   */
  private IOException failure(BlockDevice device, List<String> argv,
      CommandRunner.Result result, boolean wake) {
    String output = result.output().replace('\n', ' ');
    if (commands.isHelperRefusal(result.exitCode())) {
      return new IOException("the privileged helper refused '" + String.join(" ", argv)
          + "' (exit " + result.exitCode() + "): " + output + ". Its root-owned configuration "
          + "must list " + device.devicePath() + " in hdparm.devices and allow this DataNode's "
          + "user (docs/security.md)");
    }
    if (commands.mode() == EnergySettings.HelperMode.SUDO && output.startsWith("sudo:")) {
      return new IOException("sudo refused '" + String.join(" ", argv) + "' (exit "
          + result.exitCode() + "): " + output + ". Is the sudoers line of docs/security.md "
          + "installed?");
    }
    if (output.contains("Invalid argument") || output.contains("Inappropriate ioctl")
        || output.contains("not supported")) {
      return new UnsupportedDeviceException("device " + device.devicePath() + " (volume "
          + device.volumeDir() + ") refused '" + String.join(" ", argv) + "' (exit "
          + result.exitCode() + "): it takes no ATA power commands (loop/virtio?); it stays "
          + "spinning. hdparm said: " + output);
    }
    String message = "'" + String.join(" ", argv) + "' failed with exit " + result.exitCode()
        + ": " + output;
    return wake ? new SpinUpFailedException(message) : new IOException(message);
  }
}
