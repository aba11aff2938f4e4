package org.locus.energy.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.disk.BlockDevice;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.disk.DiskPowerState;
import org.locus.energy.disk.HdparmDiskBackend;
import org.locus.energy.disk.MountTable;
import org.locus.energy.policy.FixedTimeoutPolicy;
import org.locus.energy.policy.IdleGapHistoryPolicy;
import org.locus.energy.policy.WriteIntensityGuard;

/**
 * The power manager's state machine driving the real hdparm backend, with a fake {@code hdparm}
 * first on {@code PATH} (the module's surefire configuration puts {@code target/fake-bin} there)
 * that records its exact argument vector (each argument NUL-terminated, one call per line): exactly
 * the expected argv for each transition, so a lost or merged argument boundary fails. Time is
 * passed in, so each transition is exact. The same transitions through the privileged helper
 * run a fake {@code locus-priv} (and a fake {@code sudo}) that record their vectors the same way.
 * Spin-up failures: the fake's wake fails on {@code /dev/sdf} (exit 5, an I/O error) and hangs on
 * {@code /dev/sdh}; every command fails on {@code /dev/sdg}. Wakes are bounded at 1 s here.
 */
class HdparmCommandSequenceTest {
  private static final Path FAKE_BIN = Path.of("target", "fake-bin");
  private static final Path CALLS = FAKE_BIN.resolve("hdparm-calls.log");
  private static final Path HELPER = FAKE_BIN.resolve("locus-priv").toAbsolutePath();
  private static final BlockDevice SDZ = new BlockDevice(new File("/data/backup"), "/dev/sdz");
  private static final BlockDevice SDF = new BlockDevice(new File("/data/backup"), "/dev/sdf");
  private static final BlockDevice SDG = new BlockDevice(new File("/data/backup"), "/dev/sdg");
  private static final BlockDevice SDH = new BlockDevice(new File("/data/backup"), "/dev/sdh");
  private static final List<String> TIMER = hdparm("-S", "1", "/dev/sdz");
  private static final List<String> TIMER_OFF = hdparm("-S", "0", "/dev/sdz");
  private static final List<String> STANDBY = hdparm("-y", "/dev/sdz");
  private static final List<String> SLEEP = hdparm("-Y", "/dev/sdz");
  private static final List<String> WAKE = hdparm("--read-sector", "0", "/dev/sdz");
  private static final DiskPowerProfile PROFILE = new DiskPowerProfile(6.0, 4.6, 0.75, 24, 3000);

  @BeforeAll
  static void installFakeHdparmFirstOnPath() throws IOException {
    Files.createDirectories(FAKE_BIN);
    Path script = FAKE_BIN.resolve("hdparm");
    Files.writeString(script, String.join("\n",
        "#!/bin/sh",
        "{ printf 'hdparm\\0'; printf '%s\\0' \"$@\"; echo; } \\",
        "  >> \"$(dirname \"$0\")/hdparm-calls.log\"",
        "case \"$*\" in *loop*)",
        "  echo ' HDIO_DRIVE_CMD(standby) failed: Invalid argument' >&2; exit 22;;",
        "*--read-sector*/dev/sdf)",
        "  echo '/dev/sdf: reading sector 0: Input/output error' >&2; exit 5;;",
        "*--read-sector*/dev/sdh)",
        "  exec sleep 600;;",
        "*/dev/sdg)",
        "  echo '/dev/sdg: Input/output error' >&2; exit 5;;",
        "esac",
        "exit 0", ""));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path sudo = FAKE_BIN.resolve("sudo");
    Files.writeString(sudo, String.join("\n",
        "#!/bin/sh",
        "{ printf 'sudo\\0'; printf '%s\\0' \"$@\"; echo; } \\",
        "  >> \"$(dirname \"$0\")/hdparm-calls.log\"",
        "[ \"$1\" = -n ] && shift",
        "exec \"$@\"", ""));
    Files.setPosixFilePermissions(sudo, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path helper = FAKE_BIN.resolve("locus-priv");
    Files.writeString(helper, String.join("\n",
        "#!/bin/sh",
        "{ printf 'locus-priv\\0'; printf '%s\\0' \"$@\"; echo; } \\",
        "  >> \"$(dirname \"$0\")/hdparm-calls.log\"",
        "case \"$2\" in /dev/sdy)",
        "  echo 'locus-priv: refused (not listed): spin-down: device /dev/sdy is not in "
            + "hdparm.devices' >&2; exit 203;;",
        "esac",
        "exit 0", ""));
    Files.setPosixFilePermissions(helper, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertTrue(System.getenv("PATH").startsWith(FAKE_BIN.toAbsolutePath().toString()),
        "surefire puts target/fake-bin first on PATH: " + System.getenv("PATH"));
  }

  @BeforeEach
  void forgetCalls() throws IOException {
    Files.deleteIfExists(CALLS);
  }

  private static HdparmDiskBackend backend(String helperMode) {
    Configuration conf = new Configuration(false);
    conf.set(EnergyConfigKeys.HELPER_MODE, helperMode);
    conf.set(EnergyConfigKeys.HELPER_PATH, HELPER.toString());
    conf.set(EnergyConfigKeys.SPINUP_MS, "500");
    conf.set(EnergyConfigKeys.SPINUP_TIMEOUT_MS, "1000");
    return new HdparmDiskBackend(conf, new MountTable(List.of())) {
      @Override
      public DiskPowerProfile profile() {
        return PROFILE;
      }
    };
  }

  private static BackupDisk fixedTimeoutDisk(BlockDevice device, boolean deepSleep) {
    return fixedTimeoutDisk(device, deepSleep, "direct");
  }

  private static BackupDisk fixedTimeoutDisk(BlockDevice device, boolean deepSleep,
      String helperMode) {
    return new BackupDisk("backup", true, device, backend(helperMode),
        new FixedTimeoutPolicy(5000), new WriteIntensityGuard(2, 1000, 1000), 1000, deepSleep,
        null);
  }

  /** @return every recorded call as its argument vector, program name first */
  private static List<List<String>> calls() throws IOException {
    if (!Files.exists(CALLS)) {
      return List.of();
    }
    List<List<String>> calls = new ArrayList<>();
    for (String line : Files.readAllLines(CALLS, StandardCharsets.UTF_8)) {
      assertTrue(line.endsWith("\0"), "every argument is NUL-terminated: " + line);
      calls.add(List.of(line.substring(0, line.length() - 1).split("\0", -1)));
    }
    return calls;
  }

  /** @return the argument vector of one sudo run */
  private static List<String> sudo(String... args) {
    List<String> argv = new ArrayList<>();
    argv.add("sudo");
    argv.addAll(Arrays.asList(args));
    return argv;
  }

  /** @return the argument vector the fake helper records for one run */
  private static List<String> helper(String... args) {
    List<String> argv = new ArrayList<>();
    argv.add("locus-priv");
    argv.addAll(Arrays.asList(args));
    return argv;
  }

  /** @return the argument vector of one hdparm run */
  private static List<String> hdparm(String... args) {
    List<String> argv = new ArrayList<>();
    argv.add("hdparm");
    argv.addAll(Arrays.asList(args));
    return argv;
  }

  @Test
  void startSetsTheDrivesStandbyTimerInFiveSecondSteps() throws IOException {
    fixedTimeoutDisk(SDZ, false).start(0);
    assertEquals(List.of(TIMER), calls());
  }

  @Test
  void bulkImportSwitchesToManualModeThenForcesStandbyAndRestoresTheTimer() throws IOException {
    BackupDisk disk = fixedTimeoutDisk(SDZ, false);
    disk.start(0);
    disk.tick(100, 0, 4);
    assertEquals(BackupDisk.Mode.MANUAL, disk.mode());
    disk.tick(200, 0, 4);
    disk.tick(1100, 0, 0);
    assertEquals(List.of(TIMER, TIMER_OFF), calls(), "writes not yet quiet");
    disk.tick(1300, 0, 0);
    assertEquals(List.of(TIMER, TIMER_OFF, STANDBY, TIMER), calls());
    assertEquals(DiskPowerState.STANDBY, disk.state());
    assertEquals(BackupDisk.Mode.AUTOMATIC, disk.mode());
  }

  @Test
  void manualSleepModeUsesCapitalY() throws IOException {
    BackupDisk disk = fixedTimeoutDisk(SDZ, true);
    disk.start(0);
    disk.tick(100, 0, 4);
    disk.tick(1200, 0, 0);
    assertEquals(List.of(TIMER, TIMER_OFF, SLEEP, TIMER), calls());
  }

  @Test
  void theDrivesOwnTimerNeedsNoCommandAndAnAccessWakesWithoutOne() throws IOException {
    BackupDisk disk = fixedTimeoutDisk(SDZ, false);
    disk.start(0);
    disk.tick(4900, 0, 0);
    assertEquals(DiskPowerState.IDLE, disk.state());
    disk.tick(5000, 0, 0);
    assertEquals(DiskPowerState.STANDBY, disk.state());
    disk.tick(6000, 1, 0);
    assertEquals(DiskPowerState.WAKING, disk.state());
    disk.tick(9000, 0, 0);
    assertEquals(DiskPowerState.IDLE, disk.state());
    assertEquals(List.of(TIMER), calls());
    assertEquals(1, disk.ledger().spinUps());
    assertEquals(3000, disk.ledger().demandStallMillis());
  }

  @Test
  void wakeReadsOneSectorAndTheDiskStaysUpForTheMinimumResidency() throws IOException {
    BackupDisk disk = fixedTimeoutDisk(SDZ, false);
    disk.start(0);
    disk.tick(100, 0, 4);
    disk.tick(1200, 0, 0);
    forgetCalls();
    disk.wake(2000, "test");
    assertEquals(List.of(WAKE), calls());
    assertEquals(DiskPowerState.WAKING, disk.state());
    disk.tick(5000, 0, 0);
    assertEquals(DiskPowerState.IDLE, disk.state());
    assertEquals(0, disk.ledger().demandStallMillis(), "woken ahead of need");
  }

  @Test
  void historyPolicySpinsDownEarlyByItself() throws IOException {
    BackupDisk disk = new BackupDisk("backup", true, SDZ, backend("direct"),
        new IdleGapHistoryPolicy(5000, 200, PROFILE),
        new WriteIntensityGuard(2, 1000, 1000), 1000, false, null);
    disk.start(0);
    disk.tick(900, 0, 0);
    assertEquals(List.of(TIMER), calls());
    disk.tick(1000, 0, 0);
    assertEquals(List.of(TIMER, STANDBY), calls());
    assertEquals(DiskPowerState.STANDBY, disk.state());
  }

  @Test
  void aDiskWokenAheadOfNeedWaitsTheDrivesTimeoutForItsAccessEvenUnderTheHistoryPolicy()
      throws IOException {
    BackupDisk disk = new BackupDisk("backup", true, SDZ, backend("direct"),
        new IdleGapHistoryPolicy(5000, 200, PROFILE), new WriteIntensityGuard(2, 1000, 1000),
        1000, false, null);
    disk.start(0);
    disk.tick(1000, 0, 0);
    assertEquals(DiskPowerState.STANDBY, disk.state(), "no history: down after the residency");
    disk.wake(2000, "prediction");
    disk.tick(5000, 0, 0);
    assertEquals(DiskPowerState.IDLE, disk.state(), "ready after the 3 s spin-up");
    disk.tick(9900, 0, 0);
    assertEquals(DiskPowerState.IDLE, disk.state(),
        "4.9 s after ready, within the drive's 5 s timeout: still up for the expected access");
    disk.tick(9950, 0, 1);
    assertEquals(0, disk.ledger().demandStallMillis(), "the access found the disk spinning");
    disk.tick(10_000, 0, 0);
    disk.tick(11_000, 0, 0);
    assertEquals(DiskPowerState.STANDBY, disk.state(),
        "once the access came, the learned early spin-down applies again");
    assertEquals(List.of(TIMER, STANDBY, WAKE, STANDBY), calls());
  }

  /** @return a disk whose drive timer has put it in standby, with its -S accepted or not */
  private static BackupDisk asleep(BlockDevice device) {
    BackupDisk disk = fixedTimeoutDisk(device, false);
    disk.start(0);
    disk.tick(5000, 0, 0);
    assertEquals(DiskPowerState.STANDBY, disk.state());
    return disk;
  }

  @Test
  void aWakeThatHdparmFailsMarksTheDiskFailedWithTheExitCodeAndIsNeverRetried()
      throws IOException {
    BackupDisk disk = asleep(SDF);
    disk.wake(6000, "test");
    assertTrue(disk.spinUpFailure().startsWith("'hdparm --read-sector 0 /dev/sdf' failed with"
        + " exit 5: /dev/sdf: reading sector 0: Input/output error"), disk.spinUpFailure());
    assertFalse(disk.managed());
    disk.wake(7000, "again");
    disk.tick(30_000, 1, 1);
    disk.tick(90_000, 0, 0);
    assertEquals(List.of(hdparm("-S", "1", "/dev/sdf"), hdparm("--read-sector", "0", "/dev/sdf")),
        calls(), "one wake, then no command at all");
  }

  @Test
  void aWakeThatHangsIsKilledAtTheSpinUpBoundNotTheCommandLimit() throws IOException {
    BackupDisk disk = asleep(SDH);
    long started = System.nanoTime();
    disk.wake(6000, "test");
    long tookMillis = (System.nanoTime() - started) / 1_000_000;
    assertEquals("'hdparm --read-sector 0 /dev/sdh' did not finish within 1000 ms and was killed"
        + " (locus.energy.spinup.timeout.ms)", disk.spinUpFailure());
    assertTrue(tookMillis < EnergyConfigKeys.COMMAND_TIMEOUT_MS_DEFAULT,
        "bounded by the spin-up bound, not the 30 s limit of other commands: " + tookMillis);
    assertEquals(DiskPowerState.STANDBY, disk.state());
  }

  @Test
  void aDiskWhoseCommandsNeverWorkedIsNotMarkedFailedByAFailedWake() throws IOException {
    BackupDisk disk = asleep(SDG);
    disk.wake(6000, "test");
    disk.wake(7000, "again");
    assertNull(disk.spinUpFailure(), "no command ever worked: the command path, not the disk");
    assertTrue(disk.managed());
    assertEquals(List.of(hdparm("-S", "1", "/dev/sdg"), hdparm("--read-sector", "0", "/dev/sdg"),
        hdparm("--read-sector", "0", "/dev/sdg")), calls());
  }

  @Test
  void throughSudoTheDataNodeRunsOnlyTheHelperNonInteractively() throws Exception {
    // a fake sudo, also first on PATH, records its arguments and runs the rest
    BackupDisk disk = fixedTimeoutDisk(SDZ, false, "sudo");
    disk.start(0);
    assertTrue(disk.managed(), "sudo -n locus-priv ran: " + calls());
    assertEquals(List.of(sudo("-n", HELPER.toString(), "standby-timeout", "/dev/sdz", "1"),
        helper("standby-timeout", "/dev/sdz", "1")), calls());
  }

  @Test
  void everyTransitionIsAHelperVerbWhenTheHelperIsSetuid() throws IOException {
    BackupDisk disk = fixedTimeoutDisk(SDZ, false, "setuid");
    disk.start(0);
    disk.tick(100, 0, 4);
    disk.tick(1200, 0, 0);
    disk.wake(2000, "test");
    assertEquals(List.of(helper("standby-timeout", "/dev/sdz", "1"),
        helper("standby-timeout", "/dev/sdz", "0"), helper("spin-down", "/dev/sdz"),
        helper("standby-timeout", "/dev/sdz", "1"), helper("spin-up", "/dev/sdz")), calls());
  }

  @Test
  void deepSleepIsTheHelpersSleepVerb() throws IOException {
    BackupDisk disk = fixedTimeoutDisk(SDZ, true, "setuid");
    disk.start(0);
    disk.tick(100, 0, 4);
    disk.tick(1200, 0, 0);
    assertEquals(helper("sleep", "/dev/sdz"), calls().get(2));
  }

  @Test
  void aHelperRefusalIsReportedWithWhatToConfigure() {
    HdparmDiskBackend backend = backend("setuid");
    IOException e = assertThrows(IOException.class,
        () -> backend.spinDown(new BlockDevice(new File("/data/b"), "/dev/sdy"), false));
    assertTrue(e.getMessage().contains("helper refused")
        && e.getMessage().contains("exit 203")
        && e.getMessage().contains("is not in hdparm.devices")
        && e.getMessage().contains("docs/security.md"), e.getMessage());
  }

  @Test
  void aDeviceThatRefusesPowerCommandsIsLeftSpinningWithItsReason() throws IOException {
    BackupDisk disk = fixedTimeoutDisk(new BlockDevice(new File("/data/b"), "/dev/loop7"), false);
    disk.start(0);
    assertFalse(disk.managed());
    assertTrue(disk.unmanagedReason().contains("/dev/loop7")
        && disk.unmanagedReason().contains("no ATA power commands"), disk.unmanagedReason());
    disk.tick(100, 0, 4);
    disk.tick(10_000, 0, 0);
    assertEquals(DiskPowerState.IDLE, disk.state());
    assertEquals(List.of(hdparm("-S", "1", "/dev/loop7")), calls(), "nothing more is tried");
  }
}
