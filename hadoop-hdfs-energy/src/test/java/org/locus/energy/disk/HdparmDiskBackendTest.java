package org.locus.energy.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** hdparm's -S encoding and how volumes map to devices through the mount table. */
class HdparmDiskBackendTest {

  @Test
  void standbyTimeoutIsRoundedUpToWhatTheDriveCanExpress() {
    assertEquals(0, HdparmDiskBackend.standbyTimeoutCode(0));
    assertEquals(1, HdparmDiskBackend.standbyTimeoutCode(1));
    assertEquals(1, HdparmDiskBackend.standbyTimeoutCode(5_000));
    assertEquals(2, HdparmDiskBackend.standbyTimeoutCode(5_001));
    assertEquals(12, HdparmDiskBackend.standbyTimeoutCode(60_000));
    assertEquals(240, HdparmDiskBackend.standbyTimeoutCode(1_200_000));
    assertEquals(241, HdparmDiskBackend.standbyTimeoutCode(1_200_001));
    assertEquals(242, HdparmDiskBackend.standbyTimeoutCode(3_600_000));
    assertEquals(251, HdparmDiskBackend.standbyTimeoutCode(100 * 3_600_000L));
  }

  @Test
  void mountInfoGivesTheLongestMountPointHoldingADirectory() throws Exception {
    MountTable table = MountTable.parse(List.of(
        "22 1 0:21 / / rw - overlay overlay rw",
        "51 22 8:17 / /tmp rw,relatime shared:1 - ext4 /dev/sdb1 rw",
        "52 22 7:9 / /tmp/a\\040b rw - ext4 /dev/loop9 rw"));
    assertEquals("/dev/sdb1", table.mountOf(new File("/tmp")).source());
    assertEquals("overlay", table.mountOf(new File("/")).fsType());
  }

  @Test
  void aVolumeOnAFileSystemWithoutABlockDeviceIsUnsupported() {
    HdparmDiskBackend backend = new HdparmDiskBackend(new Configuration(false),
        MountTable.parse(List.of("22 1 0:21 / / rw - overlay overlay rw")));
    UnsupportedDeviceException e = assertThrows(UnsupportedDeviceException.class,
        () -> backend.resolve(new File("/")));
    assertTrue(e.getMessage().contains("overlay") && e.getMessage().contains("not a block"),
        e.getMessage());
  }

  @Test
  void breakEvenOfTheDatasheetDriveIsAboutOneMinute() {
    long breakEven = DiskPowerProfile.BARRACUDA_7200_14.breakEvenMillis();
    // (24 − 4.6) W × 10 s / (4.6 − 0.75) W ≈ 50.4 s, plus the 10 s spin-up itself
    assertEquals(60_389, breakEven, 1);
  }
}
