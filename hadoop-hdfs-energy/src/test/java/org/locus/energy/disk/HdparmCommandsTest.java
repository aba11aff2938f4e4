package org.locus.energy.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.locus.energy.EnergySettings.HelperMode;

/** The argument vector of every power command, directly and through locus-priv. */
class HdparmCommandsTest {
  private static final String HELPER = "/usr/local/sbin/locus-priv";
  private static final HdparmCommands DIRECT =
      new HdparmCommands(HelperMode.DIRECT, HELPER, "/usr/sbin/hdparm");
  private static final HdparmCommands SUDO =
      new HdparmCommands(HelperMode.SUDO, HELPER, "/usr/sbin/hdparm");
  private static final HdparmCommands SETUID =
      new HdparmCommands(HelperMode.SETUID, HELPER, "/usr/sbin/hdparm");

  @Test
  void directlyTheyAreHdparmsOwnCommandLines() {
    assertEquals(List.of("/usr/sbin/hdparm", "-S", "12", "/dev/sdb"),
        DIRECT.standbyTimeout("/dev/sdb", 12));
    assertEquals(List.of("/usr/sbin/hdparm", "-y", "/dev/sdb"), DIRECT.spinDown("/dev/sdb",
        false));
    assertEquals(List.of("/usr/sbin/hdparm", "-Y", "/dev/sdb"), DIRECT.spinDown("/dev/sdb",
        true));
    assertEquals(List.of("/usr/sbin/hdparm", "--read-sector", "0", "/dev/sdb"),
        DIRECT.wake("/dev/sdb"));
  }

  @Test
  void underSudoTheyAreTheHelpersVerbsRunNonInteractively() {
    assertEquals(List.of("sudo", "-n", HELPER, "standby-timeout", "/dev/sdb", "0"),
        SUDO.standbyTimeout("/dev/sdb", 0));
    assertEquals(List.of("sudo", "-n", HELPER, "spin-down", "/dev/sdb"),
        SUDO.spinDown("/dev/sdb", false));
    assertEquals(List.of("sudo", "-n", HELPER, "sleep", "/dev/sdb"),
        SUDO.spinDown("/dev/sdb", true));
    assertEquals(List.of("sudo", "-n", HELPER, "spin-up", "/dev/sdb"), SUDO.wake("/dev/sdb"));
  }

  @Test
  void setuidTheHelperIsRunItself() {
    assertEquals(List.of(HELPER, "standby-timeout", "/dev/sdc", "251"),
        SETUID.standbyTimeout("/dev/sdc", 251));
    assertEquals(List.of(HELPER, "spin-down", "/dev/sdc"), SETUID.spinDown("/dev/sdc", false));
    assertEquals(List.of(HELPER, "sleep", "/dev/sdc"), SETUID.spinDown("/dev/sdc", true));
    assertEquals(List.of(HELPER, "spin-up", "/dev/sdc"), SETUID.wake("/dev/sdc"));
  }

  @Test
  void onlyTheHelpersOwnExitCodesAreRefusals() {
    assertTrue(SUDO.isHelperRefusal(200) && SUDO.isHelperRefusal(206));
    assertFalse(SUDO.isHelperRefusal(22), "hdparm's EINVAL");
    assertFalse(SUDO.isHelperRefusal(1), "sudo's own failure");
    assertFalse(DIRECT.isHelperRefusal(203), "hdparm itself never runs the helper");
  }
}
