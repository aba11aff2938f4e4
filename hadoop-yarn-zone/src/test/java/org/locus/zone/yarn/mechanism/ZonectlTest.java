package org.locus.zone.yarn.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.zone.yarn.policy.ZoneClass;

/** {@link Zonectl} against a fake zonectl: argument vectors, the -p line, exit codes. */
class ZonectlTest {

  private static final String DEV = "/dev/sdz1";
  private static final String RESERVED = "state=reserved class=temp start=0 end=4096"
      + " block_size=4096 free_blocks=2031 fs_free_blocks=2031";

  @TempDir
  Path dir;
  private FakeCommands fake;
  private Zonectl zonectl;

  @BeforeEach
  void setUp() throws IOException {
    fake = new FakeCommands(dir);
    zonectl = new Zonectl(ZoneCommands.direct(fake.create("zonectl")),
        new CommandRunner(Duration.ofSeconds(20), Map.of()));
  }

  @Test
  void areaPassesDeviceClassOuterSizeAndAsksForTheStateLine() throws IOException {
    zonectl.area(DEV, ZoneClass.PERM, "40G");
    assertEquals(List.of(List.of("zonectl", "area", DEV, "--class", "perm", "--outer", "40G",
        "-p")), fake.calls());
  }

  @Test
  void releaseAndStatusPassTheDeviceAndAskForTheStateLine() throws IOException {
    zonectl.release(DEV);
    zonectl.status(DEV);
    assertEquals(List.of(List.of("zonectl", "release", DEV, "-p"),
        List.of("zonectl", "status", DEV, "-p")), fake.calls());
  }

  @Test
  void anArgumentWithSpacesStaysOneArgument() throws IOException {
    zonectl.release("/images/local dir.img");
    assertEquals(List.of("zonectl", "release", "/images/local dir.img", "-p"),
        fake.calls().get(0));
  }

  @Test
  void classifyPassesTheProfileAndBetaAndReadsTheClass() throws IOException {
    fake.answer("zonectl", "classify", "class=perm max=9000 after=9000 beta=0.25", "", 0);
    assertEquals(ZoneClass.PERM, zonectl.classify("/profiles/sort.profile", 0.25));
    assertEquals(List.of(List.of("zonectl", "classify", "--profile", "/profiles/sort.profile",
        "--beta", "0.25", "-p")), fake.calls());
  }

  @Test
  void aBadProfileNamesTheFile() throws IOException {
    fake.answer("zonectl", "classify", "", "zonectl: bad.profile: line 1: not a number", 1);
    ZonectlException e = assertThrows(ZonectlException.class,
        () -> zonectl.classify("bad.profile", 0.1));
    assertTrue(e.getMessage().contains("zonectl classify bad.profile"), e.getMessage());
  }

  @Test
  void parsesEveryFieldOfTheStateLine() throws IOException {
    fake.answer("zonectl", "status", RESERVED, "", 0);
    ZoneState s = zonectl.status(DEV);
    assertEquals(new ZoneState("reserved", "temp", 0, 4096, 4096, 2031, 2031, 0), s);
    assertTrue(s.isReserved());
  }

  @Test
  void afterReleaseTheStateIsNone() throws IOException {
    ZoneState s = zonectl.release(DEV);
    assertFalse(s.isReserved());
    assertEquals("none", s.zoneClass());
  }

  @Test
  void aMountedDeviceIsRefusedWithAdviceToUnmountOrRemount() throws IOException {
    fake.answer("zonectl", "area", "", "zonectl: /dev/sdz1: device is mounted", 3);
    ZonectlException e = assertThrows(ZonectlException.class,
        () -> zonectl.area(DEV, ZoneClass.TEMP, "1G"));
    assertEquals(ZonectlException.MOUNTED, e.exitCode());
    assertTrue(e.getMessage().contains("zonectl area " + DEV), e.getMessage());
    assertTrue(e.getMessage().contains("device is mounted"), e.getMessage());
    assertTrue(e.getMessage().contains("unmount " + DEV), e.getMessage());
    assertTrue(e.getMessage().contains("locus.zone.remount=true"), e.getMessage());
  }

  @Test
  void aJournalProblemSaysToRunRecover() throws IOException {
    fake.answer("zonectl", "release", "", "zonectl: journal is APPLYING", 5);
    ZonectlException e = assertThrows(ZonectlException.class, () -> zonectl.release(DEV));
    assertEquals(ZonectlException.JOURNAL, e.exitCode());
    assertTrue(e.getMessage().contains("zonectl recover " + DEV), e.getMessage());
    assertTrue(e.getMessage().contains("journal is APPLYING"), e.getMessage());
  }

  @Test
  void anInconsistentFileSystemSaysToRunE2fsck() throws IOException {
    fake.answer("zonectl", "area", "", "zonectl: bad block bitmap checksum", 8);
    ZonectlException e = assertThrows(ZonectlException.class,
        () -> zonectl.area(DEV, ZoneClass.TEMP, "1G"));
    assertEquals(ZonectlException.INCONSISTENT, e.exitCode());
    assertTrue(e.getMessage().contains("e2fsck -f " + DEV), e.getMessage());
  }

  @Test
  void permissionDeniedSaysWhoNeedsAccess() throws IOException {
    fake.answer("zonectl", "status", "", "zonectl: /dev/sdz1: Permission denied", 6);
    ZonectlException e = assertThrows(ZonectlException.class, () -> zonectl.status(DEV));
    assertTrue(e.getMessage().contains("locus.zone.helper.mode"), e.getMessage());
  }

  @Test
  void aRefusalOfTheHelperSaysWhatItsConfigurationMustList() throws IOException {
    Zonectl viaHelper = new Zonectl(new ZoneCommands(ZoneCommands.Mode.SETUID,
        fake.create("locus-priv"), "zonectl", List.of("umount"), List.of("mount")),
        new CommandRunner(Duration.ofSeconds(20), Map.of()));
    fake.answer("locus-priv", "hold", "", "locus-priv: refused (not listed): hold: mount point "
        + "/data/x is not in zonectl.mounts", 203);
    ZonectlException e = assertThrows(ZonectlException.class,
        () -> viaHelper.hold("/data/x", ZoneClass.TEMP, "1G"));
    assertEquals(203, e.exitCode());
    assertTrue(e.getMessage().contains("refused by the privileged helper")
        && e.getMessage().contains("is not in zonectl.mounts")
        && e.getMessage().contains("docs/security.md"), e.getMessage());
    assertEquals(List.of(List.of("locus-priv", "hold", "/data/x", "temp", "1G")), fake.calls());
  }

  @Test
  void aHungZonectlIsKilledAfterTheTimeLimit() throws IOException {
    Zonectl impatient = new Zonectl(ZoneCommands.direct(fake.create("zonectl")),
        new CommandRunner(Duration.ofMillis(300), Map.of()));
    fake.hang("zonectl", "area");
    long t0 = System.nanoTime();
    IOException e = assertThrows(CommandRunner.TimeoutException.class,
        () -> impatient.area(DEV, ZoneClass.TEMP, "1G"));
    assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(),
        "waited for the whole hang instead of the limit");
    assertTrue(e.getMessage().contains("300 ms"), e.getMessage());
    assertTrue(e.getMessage().contains("zonectl recover " + DEV), e.getMessage());
  }

  @Test
  void outputThatIsNotAStateLineIsAnError() throws IOException {
    fake.answer("zonectl", "status", "hello", "", 0);
    IOException e = assertThrows(IOException.class, () -> zonectl.status(DEV));
    assertTrue(e.getMessage().contains("no field 'state'"), e.getMessage());
  }

  @Test
  void aMissingBinaryNamesItsPath() {
    Zonectl missing = new Zonectl(
        ZoneCommands.direct(dir.resolve("no-such-zonectl").toString()), new CommandRunner(Duration.ofSeconds(5), Map.of()));
    IOException e = assertThrows(IOException.class, () -> missing.status(DEV));
    assertTrue(e.getMessage().contains("no-such-zonectl"), e.getMessage());
  }

  @Test
  void theStateDirectoryReachesZonectlThroughItsEnvironment() throws IOException {
    Path script = dir.resolve("env-zonectl");
    Files.writeString(script, "#!/bin/bash\necho \"state=none class=none start=0 end=0"
        + " block_size=4096 free_blocks=${#ZONECTL_STATE_DIR} fs_free_blocks=0\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Zonectl withEnv = new Zonectl(ZoneCommands.direct(script.toString()),
        new CommandRunner(Duration.ofSeconds(5), Map.of("ZONECTL_STATE_DIR", "/var/zj")));
    assertEquals("/var/zj".length(), withEnv.status(DEV).freeBlocks());
  }
}
