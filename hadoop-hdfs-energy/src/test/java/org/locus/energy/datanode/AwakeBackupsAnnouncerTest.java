package org.locus.energy.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.energy.disk.BlockDevice;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.disk.DiskPowerState;
import org.locus.energy.disk.SimulatedDiskBackend;
import org.locus.energy.policy.IdleGapHistoryPolicy;
import org.locus.energy.policy.WriteIntensityGuard;

/**
 * The DataNode's list of spinning backups, written to a local directory through Hadoop's local
 * file system, with time passed in: a backup that goes to standby leaves the list in the tick it
 * does, even within the second that rate-limits the list; one that spins up joins it at the next
 * check only.
 */
class AwakeBackupsAnnouncerTest {
  private static final String HOST = "127.0.0.2";
  /** Spin-up of 100 ms, so a woken disk is ready within the announcer's second. */
  private static final DiskPowerProfile PROFILE = new DiskPowerProfile(6.0, 4.6, 0.75, 24, 100);

  @TempDir
  Path dir;
  private AwakeBackupsAnnouncer announcer;
  private BackupDisk disk;

  @BeforeEach
  void newDiskAndAnnouncer() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    announcer = new AwakeBackupsAnnouncer(conf, dir.toUri().getPath());
    // no idle history yet: the history policy spins down once the 500 ms residency is over
    disk = new BackupDisk("backup", true, "DS-backup-1", new BlockDevice(new File("/data/b"),
        "/dev/sdz"), new SimulatedDiskBackend(PROFILE), PROFILE,
        new IdleGapHistoryPolicy(5000, 200, PROFILE), new WriteIntensityGuard(2, 1000, 1000),
        500, false, null);
    disk.start(0);
  }

  @AfterEach
  void closeClient() {
    announcer.close();
  }

  @Test
  void aBackupGoingToStandbyLeavesTheListInTheSameTick() throws IOException {
    announcer.poll(0, List.of(disk), HOST);
    assertEquals(List.of("DS-backup-1"), listed(), "spinning at start: listed");

    disk.tick(600, 0, 0);
    assertEquals(DiskPowerState.STANDBY, disk.state());
    announcer.poll(600, List.of(disk), HOST);
    assertFalse(Files.exists(dir.resolve(HOST)),
        "withdrawn 600 ms after the last write, within the rate limit");
  }

  @Test
  void aBackupSpinningUpJoinsTheListAtTheNextCheckOnly() throws IOException {
    disk.tick(600, 0, 0);
    announcer.poll(600, List.of(disk), HOST);
    assertFalse(Files.exists(dir.resolve(HOST)), "in standby: not listed");

    disk.wake(700, "test");
    disk.tick(800, 0, 0);
    assertEquals(DiskPowerState.IDLE, disk.state(), "ready after the 100 ms spin-up");
    announcer.poll(800, List.of(disk), HOST);
    assertFalse(Files.exists(dir.resolve(HOST)), "a second has not passed since the last write");
    announcer.poll(1600, List.of(disk), HOST);
    assertEquals(List.of("DS-backup-1"), listed(), "listed at the next check");
  }

  private List<String> listed() throws IOException {
    return Files.readAllLines(dir.resolve(HOST), StandardCharsets.UTF_8);
  }
}
