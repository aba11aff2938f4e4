package org.locus.zone.yarn.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.locus.zone.yarn.policy.ZoneClass;

/** The argument vector of every command the zone hook runs, directly and through locus-priv. */
class ZoneCommandsTest {
  private static final String HELPER = "/usr/local/sbin/locus-priv";
  private static final String DEV = "/dev/sdd1";
  private static final String MNT = "/grid/0/yarn-local";
  private static final ZoneCommands DIRECT = new ZoneCommands(ZoneCommands.Mode.DIRECT, HELPER,
      "/usr/local/sbin/zonectl", List.of("umount", "-l", "{mount-point}"),
      List.of("mount", "-o", "loop", "{device}", "{mount-point}"));
  private static final ZoneCommands SUDO = new ZoneCommands(ZoneCommands.Mode.SUDO, HELPER,
      "/usr/local/sbin/zonectl", List.of("umount", "{mount-point}"),
      List.of("mount", "{device}", "{mount-point}"));
  private static final ZoneCommands SETUID = new ZoneCommands(ZoneCommands.Mode.SETUID, HELPER,
      "/usr/local/sbin/zonectl", List.of("umount", "{mount-point}"),
      List.of("mount", "{device}", "{mount-point}"));

  private static List<String> z(String... args) {
    List<String> argv = new java.util.ArrayList<>(List.of("/usr/local/sbin/zonectl"));
    argv.addAll(List.of(args));
    return argv;
  }

  @Test
  void directlyTheyAreZonectlsOwnCommandLinesAndTheConfiguredTemplates() {
    assertEquals(z("area", DEV, "--class", "temp", "--outer", "40G", "-p"),
        DIRECT.area(DEV, ZoneClass.TEMP, "40G"));
    assertEquals(z("release", DEV, "-p"), DIRECT.release(DEV));
    assertEquals(z("status", DEV, "-p"), DIRECT.status(DEV));
    assertEquals(z("hold", MNT, "--class", "perm", "--outer", "40G", "-p"),
        DIRECT.hold(MNT, ZoneClass.PERM, "40G"));
    assertEquals(z("hold-release", MNT, "-p"), DIRECT.holdRelease(MNT));
    assertEquals(z("hold-status", MNT, "-p"), DIRECT.holdStatus(MNT));
    assertEquals(z("hold-recover", MNT, "-p"), DIRECT.holdRecover(MNT));
    assertEquals(z("hold-monitor", MNT, "--expand-below", "2G", "--count", "1", "-p"),
        DIRECT.holdMonitorTick(MNT, "2G"));
    assertEquals(List.of("umount", "-l", MNT), DIRECT.umount(DEV, MNT));
    assertEquals(List.of("mount", "-o", "loop", DEV, MNT), DIRECT.mount(DEV, MNT));
  }

  @Test
  void underSudoEveryPrivilegedCommandIsAHelperVerb() {
    assertEquals(List.of("sudo", "-n", HELPER, "area", DEV, "temp", "40G"),
        SUDO.area(DEV, ZoneClass.TEMP, "40G"));
    assertEquals(List.of("sudo", "-n", HELPER, "release", DEV), SUDO.release(DEV));
    assertEquals(List.of("sudo", "-n", HELPER, "status", DEV), SUDO.status(DEV));
    assertEquals(List.of("sudo", "-n", HELPER, "hold", MNT, "perm", "1073741824"),
        SUDO.hold(MNT, ZoneClass.PERM, "1073741824"));
    assertEquals(List.of("sudo", "-n", HELPER, "hold-release", MNT), SUDO.holdRelease(MNT));
    assertEquals(List.of("sudo", "-n", HELPER, "hold-status", MNT), SUDO.holdStatus(MNT));
    assertEquals(List.of("sudo", "-n", HELPER, "hold-recover", MNT), SUDO.holdRecover(MNT));
    assertEquals(List.of("sudo", "-n", HELPER, "hold-monitor", MNT, "2G"),
        SUDO.holdMonitorTick(MNT, "2G"));
    assertEquals(List.of("sudo", "-n", HELPER, "umount", MNT), SUDO.umount(DEV, MNT));
    assertEquals(List.of("sudo", "-n", HELPER, "mount", DEV, MNT), SUDO.mount(DEV, MNT));
  }

  @Test
  void setuidTheHelperIsRunItself() {
    assertEquals(List.of(HELPER, "area", DEV, "perm", "40G"),
        SETUID.area(DEV, ZoneClass.PERM, "40G"));
    assertEquals(List.of(HELPER, "hold-monitor", MNT, "2G"), SETUID.holdMonitorTick(MNT, "2G"));
    assertEquals(List.of(HELPER, "umount", MNT), SETUID.umount(DEV, MNT));
  }

  @Test
  void classifyNeedsNoPrivilegeAndAlwaysRunsZonectlItself() {
    List<String> classify = z("classify", "--profile", "/p/x.profile", "--beta", "0.1", "-p");
    assertEquals(classify, DIRECT.classify("/p/x.profile", 0.1));
    assertEquals(classify, SUDO.classify("/p/x.profile", 0.1));
    assertEquals(classify, SETUID.classify("/p/x.profile", 0.1));
  }

  @Test
  void onlyTheHelpersOwnExitCodesAreRefusals() {
    assertTrue(SUDO.isHelperRefusal(200) && SETUID.isHelperRefusal(206));
    assertFalse(SUDO.isHelperRefusal(6), "zonectl's permission error");
    assertFalse(SUDO.isHelperRefusal(32), "mount's failure");
    assertFalse(DIRECT.isHelperRefusal(203));
  }

  @Test
  void theModeNamesTheKeyWhenItIsUnknown() {
    assertEquals(ZoneCommands.Mode.SETUID, ZoneCommands.Mode.parse(" setuid ", "k"));
    assertEquals("locus.zone.helper.mode must be sudo, setuid or direct, got 'root'",
        assertThrows(IllegalArgumentException.class,
            () -> ZoneCommands.Mode.parse("root", "locus.zone.helper.mode")).getMessage());
  }
}
