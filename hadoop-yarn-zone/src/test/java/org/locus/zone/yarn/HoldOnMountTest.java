package org.locus.zone.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.zone.yarn.mechanism.CommandRunner;
import org.locus.zone.yarn.mechanism.LocalDirUsage;
import org.locus.zone.yarn.mechanism.ZoneCommands;
import org.locus.zone.yarn.mechanism.ZoneState;
import org.locus.zone.yarn.mechanism.Zonectl;
import org.locus.zone.yarn.policy.ZoneClass;

/**
 * The online method against the real zonectl ({@code make -s -C zonectl all}) on a 128 MiB
 * ext4 image mounted through a loop device (root): the area moves while the file system stays
 * mounted, and a job's class is learned from the profile the hook records.
 */
class HoldOnMountTest {

  private static final String OUTER = "32M";

  @TempDir
  Path dir;
  private Path mount;
  private String image;
  private String zonectlBinary;
  private CommandRunner runner;
  private Zonectl zonectl;
  private Path state;
  private JobAwareZoneService service;

  @BeforeEach
  void setUp() throws IOException {
    Path binary = Path.of(System.getProperty("user.dir")).resolve("../zonectl/zonectl")
        .normalize();
    if (!Files.isExecutable(binary)) {
      fail(binary + " is missing: build it first with 'make -s -C zonectl all' in the checkout");
    }
    zonectlBinary = binary.toString();
    state = Files.createDirectory(dir.resolve("zonectl-state"));
    runner = new CommandRunner(Duration.ofSeconds(60),
        Map.of("ZONECTL_STATE_DIR", state.toString()));
    image = dir.resolve("local-dir.img").toString();
    run("mke2fs", "-q", "-F", "-t", "ext4", "-b", "4096", image, "128M");
    mount = Files.createDirectory(dir.resolve("local"));
    run("mount", "-o", "loop", image, mount.toString());
    zonectl = new Zonectl(ZoneCommands.direct(zonectlBinary), runner);
  }

  @AfterEach
  void tearDown() throws IOException {
    if (service != null) {
      service.stop();
    }
    runner.run(List.of("umount", mount.toString()));
  }

  @Test
  void theAreaMovesWhileAFileStaysOpenAndReleaseLeavesACleanFileSystem() throws IOException {
    long freeBefore = Files.getFileStore(mount).getUnallocatedSpace();
    try (OutputStream open = Files.newOutputStream(mount.resolve("open-during-switches"))) {
      ZoneState temp = zonectl.hold(mount.toString(), ZoneClass.TEMP, OUTER);
      assertEquals("held", temp.state());
      assertEquals(32L * 1024 * 1024 / temp.blockSize(), temp.end());
      open.write(new byte[1 << 20]);
      ZoneState perm = zonectl.hold(mount.toString(), ZoneClass.PERM, OUTER);
      assertEquals("perm", perm.zoneClass());
      assertEquals(temp.end(), perm.start());
      open.write(new byte[1 << 20]);
    }
    Files.delete(mount.resolve("open-during-switches"));
    assertEquals("none", zonectl.holdRelease(mount.toString()).state());
    run("sync");
    assertEquals(freeBefore, Files.getFileStore(mount).getUnallocatedSpace());
    run("umount", mount.toString());
    run("e2fsck", "-fn", image);
    run("mount", "-o", "loop", image, mount.toString());
  }

  @Test
  void theUsageOfAJobDoesNotCountTheHeldBlocks() throws IOException {
    LocalDirUsage usage = new LocalDirUsage(mount, zonectl);
    long before = usage.usedBytes();
    zonectl.hold(mount.toString(), ZoneClass.TEMP, OUTER);
    long held = usage.usedBytes();
    zonectl.holdRelease(mount.toString());
    // the hold's own extent-tree blocks are the only difference
    assertTrue(Math.abs(held - before) <= 16 * 4096, before + " vs " + held);
  }

  @Test
  void aJobWhoseDataIsGoneAfterItEndsIsLearnedAsTemp() throws Exception {
    Path profiles = Files.createDirectory(dir.resolve("profiles"));
    Configuration conf = new Configuration(false);
    conf.setBoolean(ZoneConfigKeys.ENABLED, true);
    conf.set(ZoneConfigKeys.HELPER_MODE, "direct");
    conf.set(ZoneConfigKeys.ZONECTL, zonectlBinary);
    conf.set(ZoneConfigKeys.STATE_DIR, state.toString());
    conf.set(ZoneConfigKeys.DEVICE, image);
    conf.set(ZoneConfigKeys.MOUNT_POINT, mount.toString());
    conf.set(ZoneConfigKeys.OUTER_SIZE, OUTER);
    conf.set(ZoneConfigKeys.JOB_CLASSES, "^shuffle=perm");
    conf.set(ZoneConfigKeys.PROFILE_DIR, profiles.toString());
    conf.setBoolean(ZoneConfigKeys.PROFILE_RECORD, true);
    conf.setLong(ZoneConfigKeys.PROFILE_INTERVAL_MS, 100);
    conf.setLong(ZoneConfigKeys.PROFILE_SETTLE_MS, 200);
    Map<ApplicationId, String> names = new HashMap<>();
    ApplicationId first = ApplicationId.newInstance(5, 1);
    ApplicationId second = ApplicationId.newInstance(5, 2);
    names.put(first, "shuffle-heavy");
    names.put(second, "shuffle-heavy");
    service = new JobAwareZoneService(names::get);
    service.init(conf);
    service.start();

    start(first);
    assertEquals("perm", zonectl.holdStatus(mount.toString()).zoneClass(), "by the name map");
    Path spill = mount.resolve("spill");
    Files.write(spill, new byte[24 << 20]);
    run("sync");
    long seen = service.profileSamples();
    waitFor(() -> service.profileSamples() >= seen + 2, "two samples with the spill");
    Files.delete(spill);
    service.stopApplication(new ApplicationTerminationContext(first));
    Path profile = profiles.resolve("shuffle-heavy.profile");
    waitFor(() -> Files.exists(profile), "the recorded profile");

    start(second);
    assertEquals("temp", zonectl.holdStatus(mount.toString()).zoneClass(),
        "learned from the profile: " + Files.readString(profile));
    service.stopApplication(new ApplicationTerminationContext(second));
    assertEquals("none", zonectl.holdStatus(mount.toString()).state());
  }

  private void start(ApplicationId app) {
    service.initializeApplication(
        new ApplicationInitializationContext("alice", app, ByteBuffer.allocate(0)));
  }

  private interface Condition {
    boolean holds() throws Exception;
  }

  private static void waitFor(Condition c, String what) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!c.holds()) {
      if (System.nanoTime() > deadline) {
        fail("no " + what + " within 60 s");
      }
      Thread.sleep(50);
    }
  }

  private void run(String... argv) throws IOException {
    CommandRunner.Result r = runner.run(List.of(argv));
    assertEquals(0, r.exitCode(), String.join(" ", argv) + ": " + r.stdout() + r.stderr());
  }
}
