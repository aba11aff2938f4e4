package org.locus.zone.yarn.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.zone.yarn.policy.ZoneClass;

/**
 * The two {@link ZoneMechanism}s against fake zonectl, mount and umount: which commands each
 * step of the service's protocol runs, and what each offers beyond setting an area.
 */
class ZoneMechanismTest {

  private static final String DEV = "/dev/sdz1";
  private static final String MNT = "/data/nm-local";

  @TempDir
  Path dir;
  private FakeCommands fake;
  private ZoneCommands commands;
  private CommandRunner runner;
  private Zonectl zonectl;

  @BeforeEach
  void setUp() throws IOException {
    fake = new FakeCommands(dir);
    commands = new ZoneCommands(ZoneCommands.Mode.DIRECT, "", fake.create("zonectl"),
        List.of(fake.create("umount"), "{mount-point}"),
        List.of(fake.create("mount"), "{device}", "{mount-point}"));
    runner = new CommandRunner(Duration.ofSeconds(20), Map.of());
    zonectl = new Zonectl(commands, runner);
  }

  /** One change as the service runs it: begin, the edit, end. */
  private static ZoneState edit(ZoneMechanism mechanism, boolean set) throws IOException {
    mechanism.beginEdit();
    try {
      return set ? mechanism.setArea(ZoneClass.TEMP, "16M") : mechanism.release();
    } finally {
      mechanism.endEdit();
    }
  }

  @Test
  void bitmapsWithRemountEditTheDeviceBetweenUnmountAndMount() throws IOException {
    ZoneMechanism bitmaps = new OfflineBitmapMechanism(zonectl, DEV,
        new LocalDirRemounter(commands, DEV, MNT, runner));
    assertTrue(edit(bitmaps, true).isReserved());
    assertFalse(edit(bitmaps, false).isReserved());
    List<String> umount = List.of("umount", MNT);
    List<String> mount = List.of("mount", DEV, MNT);
    assertEquals(List.of(umount,
        List.of("zonectl", "area", DEV, "--class", "temp", "--outer", "16M", "-p"), mount,
        umount, List.of("zonectl", "release", DEV, "-p"), mount), fake.calls());
  }

  @Test
  void bitmapsWithoutRemountRunZonectlAlone() throws IOException {
    edit(new OfflineBitmapMechanism(zonectl, DEV, null), true);
    assertEquals(List.of(List.of("zonectl", "area", DEV, "--class", "temp", "--outer", "16M",
        "-p")), fake.calls());
  }

  @Test
  void aBusyFileSystemStopsTheBitmapEditBeforeZonectlRuns() throws IOException {
    fake.answer("umount", null, "", "umount: /data/nm-local: target is busy.", 32);
    ZoneMechanism bitmaps = new OfflineBitmapMechanism(zonectl, DEV,
        new LocalDirRemounter(commands, DEV, MNT, runner));
    assertThrows(IOException.class, bitmaps::beginEdit);
    assertEquals(List.of(List.of("umount", MNT)), fake.calls());
  }

  @Test
  void bitmapsSettleNothingAtStartAndOfferNoOnlineArea() throws IOException {
    ZoneMechanism bitmaps = new OfflineBitmapMechanism(zonectl, DEV, null);
    assertFalse(bitmaps.settleLeftovers());
    assertTrue(bitmaps.online().isEmpty());
    assertEquals(List.of(), fake.calls());
  }

  @Test
  void theHoldMovesOnTheMountPointWithoutUnmounting() throws IOException {
    ZoneMechanism hold = new OnlineHoldMechanism(zonectl, MNT);
    assertTrue(edit(hold, true).isReserved());
    assertFalse(edit(hold, false).isReserved());
    assertEquals(List.of(
        List.of("zonectl", "hold", MNT, "--class", "temp", "--outer", "16M", "-p"),
        List.of("zonectl", "hold-release", MNT, "-p")), fake.calls());
  }

  @Test
  void theHoldIsItsOwnOnlineAreaAndGrowsWithOneMonitorCheck() throws IOException {
    OnlineHoldMechanism hold = new OnlineHoldMechanism(zonectl, MNT);
    fake.answer("zonectl", "hold-monitor", "action=expand start=0 end=8192 free_blocks=9", "",
        0);
    OnlineArea area = hold.online().orElseThrow();
    assertSame(hold, area);
    assertEquals(MNT, area.mountPoint());
    assertEquals("action=expand start=0 end=8192 free_blocks=9", area.growIfShort("1G"));
    assertEquals(List.of(List.of("zonectl", "hold-monitor", MNT, "--expand-below", "1G",
        "--count", "1", "-p")), fake.calls());
  }

  @Test
  void theHoldRecoversAnInterruptedOperationAndReleasesWhatItLeft() throws IOException {
    fake.answer("zonectl", "hold-status", "state=interrupted class=none start=0 end=0 "
        + "block_size=4096 free_blocks=0 held_blocks=14000", "", 0);
    fake.answer("zonectl", "hold-recover", "state=held class=temp start=0 end=4096 "
        + "block_size=4096 free_blocks=10 held_blocks=4000", "", 0);
    assertTrue(new OnlineHoldMechanism(zonectl, MNT).settleLeftovers());
    assertEquals(List.of(List.of("zonectl", "hold-status", MNT, "-p"),
        List.of("zonectl", "hold-recover", MNT, "-p"),
        List.of("zonectl", "hold-release", MNT, "-p")), fake.calls());
  }

  @Test
  void aFileSystemWithoutAHoldHasNothingToSettle() throws IOException {
    assertFalse(new OnlineHoldMechanism(zonectl, MNT).settleLeftovers());
    assertEquals(List.of(List.of("zonectl", "hold-status", MNT, "-p")), fake.calls());
  }
}
